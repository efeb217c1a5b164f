//! Seed 004 §5.3's network presets: the article's send rate and interpolation delay for four kinds of
//! network, with link conditions we chose to match each (the article gives none; they are labelled ours).
//!
//! | preset | send rate (seed 004) | interpolation delay (seed 004) | latency | jitter | loss (ours) |
//! |---|---|---|---|---|---|
//! | `lan` | 30 Hz | 0.03 s | 2 ms | 1 ms uniform | 0 |
//! | `sameRegion` | 30 Hz | 0.05 s | 20 ms | 5 ms uniform | 0.2 % |
//! | `crossRegion` | 20 Hz | 0.1 s | 80 ms | 15 ms normal | 1 % |
//! | `mobile` | 15 Hz | 0.15 s | 60 ms | 40 ms exponential | 3 % in bursts of 4 |

use crate::link::{JitterModel, LinkParams, LossModel};
use crate::sim::params::SimParams;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum NetworkPreset {
    Lan,
    SameRegion,
    CrossRegion,
    Mobile,
}

impl NetworkPreset {
    pub const ALL: [NetworkPreset; 4] =
        [NetworkPreset::Lan, NetworkPreset::SameRegion, NetworkPreset::CrossRegion, NetworkPreset::Mobile];

    /// (send rate Hz, interpolation delay s) as seed 004 §5.3 gives them.
    pub fn article_values(self) -> (f64, f64) {
        match self {
            NetworkPreset::Lan => (30.0, 0.03),
            NetworkPreset::SameRegion => (30.0, 0.05),
            NetworkPreset::CrossRegion => (20.0, 0.1),
            NetworkPreset::Mobile => (15.0, 0.15),
        }
    }

    /// One direction's link conditions for this preset (our choice).
    pub fn link(self) -> LinkParams {
        let base = LinkParams::default();
        match self {
            NetworkPreset::Lan => LinkParams { latency: 0.002, jitter: 0.001, ..base },
            NetworkPreset::SameRegion => LinkParams { latency: 0.02, jitter: 0.005, loss: 0.002, ..base },
            NetworkPreset::CrossRegion => {
                LinkParams { latency: 0.08, jitter: 0.015, jitter_model: JitterModel::Normal, loss: 0.01, ..base }
            }
            NetworkPreset::Mobile => LinkParams {
                latency: 0.06,
                jitter: 0.04,
                jitter_model: JitterModel::Exponential,
                loss: 0.03,
                loss_model: LossModel::Burst,
                burst_length: 4.0,
                ..base
            },
        }
    }

    /// Sets the send rate, the render delay and both links of `params`.
    pub fn apply(self, params: &mut SimParams) {
        self.apply_network(params);
        params.remote.clock.render_delay = self.article_values().1;
    }

    /// Sets the send rate and both links only (the network, not how the client copes with it): the league
    /// table runs every strategy with its own settings on each preset's network.
    pub fn apply_network(self, params: &mut SimParams) {
        params.scenario.send_rate = self.article_values().0;
        params.network.downlink = self.link();
        params.network.uplink = self.link();
    }

    /// The external name (`lan`, `sameRegion`, `crossRegion`, `mobile`).
    pub fn name(self) -> &'static str {
        match self {
            NetworkPreset::Lan => "lan",
            NetworkPreset::SameRegion => "sameRegion",
            NetworkPreset::CrossRegion => "crossRegion",
            NetworkPreset::Mobile => "mobile",
        }
    }

    pub fn from_name(name: &str) -> Option<NetworkPreset> {
        NetworkPreset::ALL.into_iter().find(|p| p.name() == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_gives_valid_params_with_the_articles_numbers() {
        for preset in NetworkPreset::ALL {
            let mut p = SimParams::default();
            preset.apply(&mut p);
            assert_eq!(p.validate(), Ok(()), "{preset:?}");
            assert_eq!((p.scenario.send_rate, p.remote.clock.render_delay), preset.article_values());
        }
        assert_eq!(NetworkPreset::CrossRegion.article_values(), (20.0, 0.1));
    }

    #[test]
    fn the_network_alone_leaves_the_render_delay_and_names_round_trip() {
        let mut p = SimParams::default();
        p.remote.clock.render_delay = 0.2;
        NetworkPreset::Mobile.apply_network(&mut p);
        assert_eq!((p.scenario.send_rate, p.remote.clock.render_delay), (15.0, 0.2));
        assert_eq!(p.network.downlink, NetworkPreset::Mobile.link());
        for preset in NetworkPreset::ALL {
            assert_eq!(NetworkPreset::from_name(preset.name()), Some(preset));
            assert_eq!(serde_json::to_string(&preset).unwrap(), format!("\"{}\"", preset.name()));
        }
    }
}

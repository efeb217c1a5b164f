use super::*;
use crate::sim::presets::NetworkPreset;

fn scenario(json: &str) -> PlaygroundParams {
    PlaygroundParams::from_json(json).unwrap()
}

#[test]
fn the_knobs_write_the_settings_they_name() {
    // Each knob's name is the key its engine reads: the parameters parsed from `{engines: {strategy: {name: v}}}`
    // equal the ones the knob writes (a misspelt name, or a knob writing another field, turns this red).
    let context = Context { send_rate: 20.0 };
    for knob in KNOBS.iter().filter(|k| !k.simulated_only) {
        let value = (knob.values)(&context)[3];
        let written = with_value(&PlaygroundParams::default(), knob, &context, value);
        let mut settings = (knob.fixed)(&context);
        settings.insert(knob.name.to_string(), if knob.whole { json!(value as u64) } else { json!(value) });
        // The engines' group keys drop the dash of the strategy's name (`ngo-1x` reads `engines.ngo1x`).
        let text = json!({"engines": {knob.strategy.name().replace('-', ""): settings}}).to_string();
        assert_eq!(scenario(&text), written, "{}.{}", knob.strategy.name(), knob.name);
    }
    let delay = KNOBS.iter().find(|k| k.simulated_only).unwrap();
    let written = with_value(&PlaygroundParams::default(), delay, &context, 0.25);
    assert_eq!(scenario(r#"{"remote": {"clock": {"renderDelay": 0.25}}}"#), written);
}

#[test]
fn the_grids_are_ascending_and_within_the_settings_ranges() {
    let context = Context { send_rate: 20.0 };
    for knob in &KNOBS {
        let values = (knob.values)(&context);
        assert!(values.windows(2).all(|w| w[0] < w[1]), "{}", knob.name);
        let highest = with_value(&PlaygroundParams::default(), knob, &context, *values.last().unwrap());
        let lowest = with_value(&PlaygroundParams::default(), knob, &context, values[0]);
        highest.validate().unwrap_or_else(|e| panic!("{}: {e}", knob.name));
        lowest.validate().unwrap_or_else(|e| panic!("{}: {e}", knob.name));
    }
    assert_eq!(grid(0.5, 1.5, 0.25), [0.5, 0.75, 1.0, 1.25, 1.5]);
}

#[test]
fn a_target_outside_its_range_and_a_run_too_short_are_refused_by_name() {
    let params = PlaygroundParams::default();
    let network = Network::custom("default");
    let subject = Subject::Scenario { params: &params, network: &network };
    for bad in [0.0, 0.0009, 0.6, f64::NAN, f64::INFINITY] {
        let e = tune(&subject, bad, &[StrategyKind::Geckos]).unwrap_err();
        assert_eq!(e.field, "target", "{bad}");
    }
    // 20 s at 60 fps = 1200 frames; a target of 0.5 % needs 10 / 0.005 = 2000 of them.
    let e = tune(&subject, 0.005, &[StrategyKind::Geckos]).unwrap_err();
    assert_eq!(e.field, "duration");
    assert!(e.message.starts_with("1200 frames are too few to judge an underrun share of 0.5 %: at least 2000"), "{e}");
}

#[test]
fn geckos_on_a_steady_stream_needs_a_buffer_of_one_send_interval_and_the_jitter() {
    // geckos.io renders `interpolationBuffer` behind the server time it estimates from the newest snapshot
    // (serverTime − arrival, auto-corrected): with no jitter and no loss (20 Hz, a constant 50 ms one way), a
    // buffer of less than one send interval (50 ms) passes the newest snapshot before the next arrives on most
    // frames; a buffer of one send interval or more never does. So the smallest grid value (5 ms steps) meeting a
    // 1 % target lies in 45..=55 ms, and the step below it is over 1 %.
    let params = scenario(
        r#"{"duration": 20, "network": {"downlink": {"latency": 0.05, "jitter": 0, "loss": 0},
            "uplink": {"latency": 0.05, "jitter": 0, "loss": 0}}}"#,
    );
    let network = Network::custom("steady");
    let tuned = tune(&Subject::Scenario { params: &params, network: &network }, 0.01, &[StrategyKind::Geckos]).unwrap();
    let row = &tuned.rows[0];
    assert!(row.met);
    let buffer = row.settings["interpolationBuffer"].as_f64().unwrap();
    assert!((45.0..=55.0).contains(&buffer), "{buffer}");
    let lower = row.next_lower.as_ref().unwrap();
    assert_eq!(lower.settings["interpolationBuffer"].as_f64().unwrap(), buffer - 5.0);
    assert!(lower.underrun > 0.01 && row.underrun <= 0.01, "{} / {}", lower.underrun, row.underrun);
    // Bisection over 201 values: far fewer runs than the grid.
    assert!(row.runs <= 12, "{}", row.runs);
}

#[test]
fn every_row_reproduces_under_compare_with_its_params() {
    // The row's params through the league for its one strategy give the very underrun share of the row.
    let params = scenario(r#"{"duration": 20, "seed": 7}"#);
    let network = Network::preset(NetworkPreset::Mobile);
    let subject = Subject::Scenario { params: &params, network: &network };
    let tuned = tune(&subject, 0.02, &tunable()).unwrap();
    assert_eq!(tuned.rows.len(), KNOBS.len());
    for row in &tuned.rows {
        let again = league(&row.params, std::slice::from_ref(&network), &[row.strategy]).unwrap();
        let share = again.cells[0].metrics.underrun_share.unwrap();
        assert_eq!(share, row.underrun, "{} {}", row.strategy.name(), row.setting);
        if row.met {
            assert!(row.underrun <= 0.02);
        }
        if let Some(lower) = &row.next_lower {
            assert!(
                lower.underrun > 0.02,
                "{} {}: the next step down is over the target",
                row.strategy.name(),
                row.setting
            );
        }
    }
}

#[test]
fn a_network_no_setting_covers_says_so_with_the_best_reached() {
    // Half the packets lost in bursts of 40 (2 s at 20 Hz): geckos' buffer of at most 1 s cannot hold 1 % on it.
    let params = scenario(
        r#"{"duration": 20, "network": {"downlink": {"loss": 0.5, "lossModel": "burst", "burstLength": 40}}}"#,
    );
    let network = Network::custom("broken");
    let tuned = tune(&Subject::Scenario { params: &params, network: &network }, 0.01, &[StrategyKind::Geckos]).unwrap();
    let row = &tuned.rows[0];
    assert!(!row.met);
    assert!(row.underrun > 0.01);
    assert_eq!(row.settings["interpolationBuffer"].as_f64().unwrap(), 1000.0, "the grid's top: the best reached");
    assert!(row.next_lower.is_none());
}

#[test]
fn a_setting_at_which_the_engine_shows_nothing_does_not_meet_the_target() {
    // geckos.io with no buffer on a clean LAN: its render time is at the newest snapshot's time or past it, outside
    // its vault, where it returns nothing: no frame runs dry, and none shows the entity. That is no answer: the
    // smallest buffer that counts shows the entity, and the step below it is the one that showed nothing.
    let params = PlaygroundParams::default();
    let network = Network::preset(NetworkPreset::Lan);
    let tuned = tune(&Subject::Scenario { params: &params, network: &network }, 0.01, &[StrategyKind::Geckos]).unwrap();
    let row = &tuned.rows[0];
    assert!(row.met);
    assert!(row.settings["interpolationBuffer"].as_f64().unwrap() > 0.0, "{:?}", row.settings);
    let metrics = league(&row.params, std::slice::from_ref(&network), &[StrategyKind::Geckos]).unwrap();
    assert!(metrics.cells[0].metrics.track.shown >= MIN_SHOWN);
    let geckos = KNOBS.iter().find(|k| k.strategy == StrategyKind::Geckos).unwrap();
    let zero = with_value(&params, geckos, &Context { send_rate: 30.0 }, 0.0);
    let none = league(&zero, std::slice::from_ref(&network), &[StrategyKind::Geckos]).unwrap();
    assert!(none.cells[0].metrics.track.shown < MIN_SHOWN, "a 0 ms buffer shows nothing on this network");
}

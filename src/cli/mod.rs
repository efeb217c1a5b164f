//! The binary's own modules: the IO the library never does — a server and a network client.

pub mod record;
pub mod rtc;
pub mod serve;

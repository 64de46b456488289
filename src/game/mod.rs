//! The games evotune tunes. Each game lives in its own folder; Connect6 comes first.

pub mod connect;

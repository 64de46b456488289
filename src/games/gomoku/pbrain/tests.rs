//! Transcripts of the pbrain protocol.

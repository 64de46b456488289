//! `evotune reproduce <paper>`: placeholder while the reproductions are written.

use anyhow::Result;

use crate::cli::ReproduceArgs;

pub fn run(_args: &ReproduceArgs) -> Result<()> {
    anyhow::bail!("reproduce is not built yet")
}

//! The terminal half of interactive play: raw mode, the alternate screen, drawing frames
//! from a [`Screen`] and restoring the terminal on every way out.

use beast_judge::play::Screen;

/// Runs `screen` in the terminal until it asks to quit.
pub fn play(_screen: &mut dyn Screen) -> anyhow::Result<()> {
    anyhow::bail!("interactive play is not built yet")
}

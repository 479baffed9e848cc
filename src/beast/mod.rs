//! Beast puzzles: the input format, the rules of a turn, and rendering.

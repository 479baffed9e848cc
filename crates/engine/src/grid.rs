//! Grid geometry shared by every game: a cell position, the four step directions, and a
//! dense row-major grid of cells.

use std::fmt;
use std::str::FromStr;

/// A cell position, `(row, col)`, zero-based, row 0 at the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Row, counted from the top.
    pub row: usize,
    /// Column, counted from the left.
    pub col: usize,
}

impl Pos {
    /// The position at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Pos { row, col }
    }

    /// The position `dr` rows and `dc` columns away, or `None` if that leaves the quadrant.
    pub fn offset(self, dr: isize, dc: isize) -> Option<Pos> {
        Some(Pos {
            row: self.row.checked_add_signed(dr)?,
            col: self.col.checked_add_signed(dc)?,
        })
    }

    /// The neighbouring position in direction `dir`, or `None` above row 0 or left of column 0.
    pub fn step(self, dir: Dir) -> Option<Pos> {
        let (dr, dc) = dir.delta();
        self.offset(dr, dc)
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// One of the four orthogonal step directions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards row 0.
    Up,
    /// Towards the last row.
    Down,
    /// Towards column 0.
    Left,
    /// Towards the last column.
    Right,
}

impl Dir {
    /// All four directions, in the order U, D, L, R.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// `(row delta, column delta)` of one step.
    pub const fn delta(self) -> (isize, isize) {
        match self {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        }
    }

    /// The letter used in move strings: `U`, `D`, `L` or `R`.
    pub const fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// The direction for a move letter (upper case only).
    pub const fn from_letter(c: char) -> Option<Dir> {
        match c {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }
}

/// A dense, row-major grid of `cols` x `rows` cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid<T> {
    cols: usize,
    rows: usize,
    cells: Vec<T>,
}

impl<T: Clone> Grid<T> {
    /// A grid with every cell set to `fill`.
    pub fn new(cols: usize, rows: usize, fill: T) -> Self {
        Grid {
            cols,
            rows,
            cells: vec![fill; cols * rows],
        }
    }
}

impl<T> Grid<T> {
    /// A grid over `cells` in row-major order; `None` unless `cells.len() == cols * rows`.
    pub fn from_cells(cols: usize, rows: usize, cells: Vec<T>) -> Option<Self> {
        (cols.checked_mul(rows)? == cells.len()).then_some(Grid { cols, rows, cells })
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// True if `pos` lies on the grid.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.row < self.rows && pos.col < self.cols
    }

    /// True if `pos` is a cell of the grid's outer ring (a puzzle's solid `#` border).
    pub fn on_border(&self, pos: Pos) -> bool {
        pos.row == 0 || pos.col == 0 || pos.row + 1 == self.rows || pos.col + 1 == self.cols
    }

    /// The flat row-major index of `pos` (which must lie on the grid).
    pub fn index(&self, pos: Pos) -> usize {
        pos.row * self.cols + pos.col
    }

    /// The position of flat index `index`.
    pub fn pos(&self, index: usize) -> Pos {
        Pos::new(index / self.cols, index % self.cols)
    }

    /// The cell at `pos`, or `None` off the grid.
    pub fn get(&self, pos: Pos) -> Option<&T> {
        self.contains(pos).then(|| &self.cells[self.index(pos)])
    }

    /// All cells in row-major order.
    pub fn cells(&self) -> &[T] {
        &self.cells
    }

    /// All cells in row-major order, mutably.
    pub fn cells_mut(&mut self) -> &mut [T] {
        &mut self.cells
    }

    /// The cells of row `row`.
    pub fn row(&self, row: usize) -> &[T] {
        &self.cells[row * self.cols..(row + 1) * self.cols]
    }

    /// Every position with its cell, row by row.
    pub fn iter(&self) -> impl Iterator<Item = (Pos, &T)> {
        self.cells
            .iter()
            .enumerate()
            .map(move |(i, c)| (Pos::new(i / self.cols, i % self.cols), c))
    }
}

impl<T> std::ops::Index<Pos> for Grid<T> {
    type Output = T;
    fn index(&self, pos: Pos) -> &T {
        &self.cells[pos.row * self.cols + pos.col]
    }
}

impl<T> std::ops::IndexMut<Pos> for Grid<T> {
    fn index_mut(&mut self, pos: Pos) -> &mut T {
        &mut self.cells[pos.row * self.cols + pos.col]
    }
}

/// The eight neighbours of a cell as (row, column) offsets, in reading order: the row above
/// left to right, the two beside, the row below. The beast turn ranks them in this order.
pub const AROUND: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A width and height as people write them on a command line: `COLSxROWS`, such as `16x10`
/// (an upper-case `X` and spaces around the numbers are fine). Every game's size flag reads
/// through this one parser; each game then checks its own limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dimensions {
    /// Columns (width).
    pub cols: usize,
    /// Rows (height).
    pub rows: usize,
}

/// Text that is not `COLSxROWS`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected COLSxROWS such as 16x10, got {0:?}")]
pub struct DimensionsError(pub String);

impl FromStr for Dimensions {
    type Err = DimensionsError;
    fn from_str(s: &str) -> Result<Dimensions, DimensionsError> {
        let bad = || DimensionsError(s.trim().to_string());
        let (c, r) = s.trim().split_once(['x', 'X']).ok_or_else(bad)?;
        let number = |t: &str| t.trim().parse::<usize>().map_err(|_| bad());
        Ok(Dimensions {
            cols: number(c)?,
            rows: number(r)?,
        })
    }
}

impl fmt::Display for Dimensions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.cols, self.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_off_the_top_left_is_none() {
        assert_eq!(Pos::new(0, 0).step(Dir::Up), None);
        assert_eq!(Pos::new(0, 0).step(Dir::Left), None);
        assert_eq!(Pos::new(0, 0).step(Dir::Right), Some(Pos::new(0, 1)));
        assert_eq!(Pos::new(0, 0).step(Dir::Down), Some(Pos::new(1, 0)));
    }

    #[test]
    fn grid_is_row_major() {
        let g = Grid::from_cells(3, 2, vec![0, 1, 2, 3, 4, 5]).expect("6 cells");
        assert_eq!(g[Pos::new(1, 0)], 3);
        assert_eq!(g.row(1), &[3, 4, 5]);
        assert_eq!(g.pos(5), Pos::new(1, 2));
        assert_eq!(g.get(Pos::new(2, 0)), None);
        assert!(Grid::from_cells(3, 2, vec![0; 5]).is_none());
    }

    #[test]
    fn letters_round_trip() {
        for d in Dir::ALL {
            assert_eq!(Dir::from_letter(d.letter()), Some(d));
        }
        assert_eq!(Dir::from_letter('u'), None);
    }

    #[test]
    fn dimensions_read_cols_x_rows_and_nothing_else() {
        let d = |cols, rows| Ok(Dimensions { cols, rows });
        assert_eq!("16x10".parse(), d(16, 10));
        assert_eq!(" 3 X 4 ".parse(), d(3, 4));
        for bad in ["16", "x10", "16x", "ax3", "3x-1", "3x4x5"] {
            assert_eq!(
                bad.parse::<Dimensions>(),
                Err(DimensionsError(bad.to_string())),
                "{bad}"
            );
        }
        assert_eq!(Dimensions { cols: 7, rows: 5 }.to_string(), "7x5");
    }
}

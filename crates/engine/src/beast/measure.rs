//! How a beast measures the distance to its target: one [`Measure`] for each
//! [`Distance`](super::rules::Distance), as a number that orders cells the way the measure
//! does. The beasts' moves ([`super::game`], [`super::chase`]) are generic over it, so
//! our Euclidean one pays nothing for the others.

/// A distance measure, as a number that orders cells the way the measure does. Each one is
/// a join of one part for the rows and one for the columns, so that a beast works out three
/// parts a direction and joins them for its eight neighbours.
pub(super) trait Measure {
    /// The part of one axis's offset.
    fn part(d: i64) -> u64;
    /// The distance from the parts of the row and the column offsets.
    fn join(row: u64, col: u64) -> u64;
    /// The distance of the offset `(dy, dx)`.
    #[inline]
    fn of(dy: i64, dx: i64) -> u64 {
        Self::join(Self::part(dy), Self::part(dx))
    }
}

/// Squared Euclidean distance (the square keeps it exact and orders the same).
pub(super) struct Euclidean;
/// Rows plus columns.
pub(super) struct Manhattan;
/// The larger of rows and columns.
pub(super) struct Chebyshev;
/// Euclidean truncated to a whole number.
pub(super) struct Truncated;
/// Euclidean times 30, truncated to a whole number: `isqrt(900 d²)`, exact in integers.
pub(super) struct Scaled30;
/// Euclidean rounded to the nearest whole number: `round(sqrt(d²))`, exact in integers.
pub(super) struct Rounded;

impl Measure for Euclidean {
    #[inline]
    fn part(d: i64) -> u64 {
        (d * d) as u64
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        row + col
    }
}

impl Measure for Manhattan {
    #[inline]
    fn part(d: i64) -> u64 {
        d.unsigned_abs()
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        row + col
    }
}

impl Measure for Chebyshev {
    #[inline]
    fn part(d: i64) -> u64 {
        d.unsigned_abs()
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        row.max(col)
    }
}

impl Measure for Truncated {
    #[inline]
    fn part(d: i64) -> u64 {
        Euclidean::part(d)
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        Euclidean::join(row, col).isqrt()
    }
}

impl Measure for Scaled30 {
    #[inline]
    fn part(d: i64) -> u64 {
        Euclidean::part(d)
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        // 900 d² in 128 bits: a squared distance on any map fits in 64.
        let squared = u128::from(Euclidean::join(row, col)) * 900;
        u64::try_from(squared.isqrt()).unwrap_or(u64::MAX)
    }
}

impl Measure for Rounded {
    #[inline]
    fn part(d: i64) -> u64 {
        Euclidean::part(d)
    }
    #[inline]
    fn join(row: u64, col: u64) -> u64 {
        // sqrt(x) >= r + 1/2 exactly when x > r² + r (x a whole number: never a tie).
        let x = Euclidean::join(row, col);
        let r = x.isqrt();
        r + u64::from(x > r * r + r)
    }
}

//! Where everything goes on the solitaire screen: the houses in a row
//! with the store at the right end, scrolled a page at a time when they do
//! not all fit, the banner, the status line and the key help. One
//! [`Layout`] is shared by drawing ([`view`](super::view)) and by mouse
//! clicks ([`Layout::hit`]), so a click always lands on what is drawn.

use ratatui::layout::Rect;
use ratatui::widgets::Block;

use super::app::SolitaireGame;

/// The smallest screen the game is drawn on.
pub const MIN_WIDTH: u16 = 44;
/// The smallest screen the game is drawn on.
pub const MIN_HEIGHT: u16 = 19;

/// Rows of the house boxes: border, two rows of seed marks, count, border.
pub(super) const BOX_HEIGHT: u16 = 5;
/// Columns between two boxes, when there is room.
const GAP: u16 = 1;
/// Columns of a scroll arrow and its gap.
pub(super) const ARROW: u16 = 2;

/// Where everything is on the screen, shared by drawing and mouse clicks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The frame around the game.
    pub(super) frame: Rect,
    /// The houses on screen with their boxes, left (farthest) to right.
    pub(super) houses: Vec<(usize, Rect)>,
    /// The store's box.
    pub(super) store: Rect,
    /// Houses scrolled off to the left (farther from the store), as a range.
    pub(super) hidden_left: Option<(usize, usize)>,
    /// Houses scrolled off to the right (between the view and the store).
    pub(super) hidden_right: Option<(usize, usize)>,
    /// The first row of the board: the hand and cursor line.
    pub(super) top: u16,
    /// Where the won / stuck banner goes.
    pub(super) banner: Rect,
    /// The status line.
    pub(super) status: Rect,
    /// The key help line.
    pub(super) keys: Rect,
}

impl Layout {
    /// The houses on screen with their boxes, left (farthest) to right.
    #[must_use]
    pub fn houses(&self) -> &[(usize, Rect)] {
        &self.houses
    }

    /// The store's box.
    #[must_use]
    pub fn store(&self) -> Rect {
        self.store
    }

    /// The house a click at `(x, y)` is on: a house's box plays it, a
    /// scroll arrow selects the next house hidden past it.
    #[must_use]
    pub fn hit(&self, x: u16, y: u16) -> Option<Hit> {
        let at = ratatui::layout::Position::new(x, y);
        // The scroll arrows are on the boxes' rows.
        let arrow_hit = |left: u16| {
            (left..left + ARROW).contains(&x) && (self.store.y..self.store.bottom()).contains(&y)
        };
        if let (Some(_), Some(&(house, rect))) = (self.hidden_left, self.houses.first())
            && arrow_hit(rect.x.saturating_sub(ARROW))
        {
            return Some(Hit::Select(house + 1));
        }
        if let (Some(_), Some(&(house, _))) = (self.hidden_right, self.houses.last())
            && arrow_hit(self.store.x.saturating_sub(ARROW))
        {
            return Some(Hit::Select(house - 1));
        }
        if self.store.contains(at) {
            return Some(Hit::Store);
        }
        self.houses
            .iter()
            .find(|(_, r)| r.contains(at))
            .map(|&(house, _)| Hit::Play(house))
    }
}

/// What a click on the solitaire board means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hit {
    /// Play this house.
    Play(usize),
    /// Select this house (a scroll arrow: the next house hidden past it).
    Select(usize),
    /// The store, which is never played.
    Store,
}

fn digits(n: u64) -> u16 {
    n.checked_ilog10().map_or(1, |d| d as u16 + 1)
}

/// The house the view must show: the hand's place while a move is
/// shown, else the cursor.
fn focus(app: &SolitaireGame) -> usize {
    match app.animation() {
        Some(animation) => animation.hand_at().max(1),
        None => app.cursor().max(1),
    }
}

/// Where everything goes on a screen of `area`, or `None` when the screen
/// is smaller than [`MIN_WIDTH`] x [`MIN_HEIGHT`].
#[must_use]
pub fn layout(area: Rect, app: &SolitaireGame) -> Option<Layout> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let counts = app.shown_counts();
    let houses = counts.len() - 1;
    let frame = Rect::new(area.x, area.y, area.width, area.height - 2);
    let status = Rect::new(area.x, area.y + area.height - 2, area.width, 1);
    let keys = Rect::new(area.x, area.y + area.height - 1, area.width, 1);
    let inner = Block::bordered().inner(frame);

    let widest = counts[1..]
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(houses as u64);
    // Wide enough for the longest count, up to a cap (longer counts are
    // abbreviated) so that a house and the store always fit the screen.
    let house_w = (digits(widest) + 4).clamp(6, 12);
    let store_w = (digits(app.board().total()) + 4).clamp(9, 14);
    // Boxes one column apart when they all fit so, else touching, else
    // scrolled (touching) with an arrow on each side.
    let room = inner.width.saturating_sub(2 + store_w);
    let row_of = |gap: u16| houses as u64 * u64::from(house_w + gap) + u64::from(gap);
    let (fits_all, gap) = if row_of(GAP) <= u64::from(room) {
        (true, GAP)
    } else {
        (row_of(0) <= u64::from(room), 0)
    };
    let capacity = if fits_all {
        houses
    } else {
        (usize::from(room.saturating_sub(2 * ARROW)) / usize::from(house_w)).max(1)
    };
    let (lo, hi) = if houses == 0 {
        (1, 0)
    } else {
        let page = (focus(app).min(houses) - 1) / capacity;
        let lo = (page * capacity + 1).min(houses + 1 - capacity);
        (lo, lo + capacity - 1)
    };
    let hidden_left = (hi < houses).then_some((hi + 1, houses));
    let hidden_right = (lo > 1).then_some((1, lo - 1));

    let shown = hi + 1 - lo;
    let row_width =
        shown as u16 * (house_w + gap) + gap + store_w + if fits_all { 0 } else { 2 * ARROW };
    let top = inner.y + 2 + (inner.height.saturating_sub(2 + 9 + 4)) / 2;
    let mut x = inner.x + (inner.width.saturating_sub(row_width)) / 2;
    if !fits_all {
        x += ARROW;
    }
    let box_y = top + 1;
    let mut placed = Vec::with_capacity(shown);
    for house in (lo..=hi).rev() {
        placed.push((house, Rect::new(x, box_y, house_w, BOX_HEIGHT)));
        x += house_w + gap;
    }
    x += gap;
    if !fits_all {
        x += ARROW;
    }
    let store = Rect::new(x, box_y, store_w, BOX_HEIGHT);
    let banner_y = top + 9;
    let banner = Rect::new(
        inner.x,
        banner_y,
        inner.width,
        (inner.y + inner.height).saturating_sub(banner_y).min(4),
    );
    Some(Layout {
        frame,
        houses: placed,
        store,
        hidden_left,
        hidden_right,
        top,
        banner,
        status,
        keys,
    })
}

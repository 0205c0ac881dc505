//! Where everything goes on the solitaire screen: the houses in rows read
//! like text (the farthest top left, house 1 and the store at the right
//! end of the last row), as many rows as the screen has room for, with
//! smaller boxes before any house is scrolled off, and scrolled a page at
//! a time only when they still do not all fit; the banner, the status line
//! and the key help. One
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
/// Rows of a small box (border, count, border), used when the houses fit
/// on the screen only so.
pub(super) const SMALL_BOX_HEIGHT: u16 = 3;
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
    /// Whether the boxes are small ([`SMALL_BOX_HEIGHT`]): no seed marks,
    /// and the hint on the row under the box (with the ▲ of a legal house).
    pub(super) small: bool,
    /// The row under the board for the note on houses scrolled off.
    pub(super) note: Rect,
    /// Where the won / stuck banner goes.
    pub(super) banner: Rect,
    /// The status line.
    pub(super) status: Rect,
    /// The key help line.
    pub(super) keys: Rect,
}

impl Layout {
    /// The house a click at `(x, y)` is on: a house's box plays it, a
    /// scroll arrow selects the next house hidden past it.
    #[must_use]
    pub fn hit(&self, x: u16, y: u16) -> Option<Hit> {
        let at = ratatui::layout::Position::new(x, y);
        // The scroll arrows are beside the first house and the store.
        let arrow_hit = |beside: Rect| {
            (beside.x.saturating_sub(ARROW)..beside.x).contains(&x)
                && (beside.y..beside.bottom()).contains(&y)
        };
        if let (Some(_), Some(&(house, rect))) = (self.hidden_left, self.houses.first())
            && arrow_hit(rect)
        {
            return Some(Hit::Select(house + 1));
        }
        if let (Some(_), Some(&(house, _))) = (self.hidden_right, self.houses.last())
            && arrow_hit(self.store)
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
    // Every row is as wide as the last, where the store stands.
    let room = inner.width.saturating_sub(2 + store_w);
    // Rows under the two lines of rules, less the note's line.
    let free = inner.height.saturating_sub(3);
    let per_row = |gap: u16, arrows: bool| {
        let room = room.saturating_sub(if arrows { 2 * ARROW } else { 0 });
        (usize::from(room.saturating_sub(gap)) / usize::from(house_w + gap)).max(1)
    };
    // A row of boxes: the hand's line, the boxes, the ▲ line, and for big
    // boxes a line for the hint.
    let row_height = |small: bool| {
        if small {
            SMALL_BOX_HEIGHT + 2
        } else {
            BOX_HEIGHT + 3
        }
    };
    let rows_for = |small: bool| usize::from(free / row_height(small)).max(1);
    // One row, apart or touching; else as many rows as there is room for,
    // apart or touching, then with small boxes; else scrolled (big boxes,
    // touching, an arrow each side).
    let fitting = [
        (GAP, false, true),
        (0, false, true),
        (GAP, false, false),
        (0, false, false),
        (0, true, false),
    ]
    .into_iter()
    .find(|&(gap, small, one_row)| {
        houses <= per_row(gap, false) * if one_row { 1 } else { rows_for(small) }
    });
    let (gap, small, fits_all) = fitting.map_or((0, false, false), |(g, s, _)| (g, s, true));
    let across = per_row(gap, !fits_all);
    let rows = if fits_all {
        houses.div_ceil(across).max(1)
    } else {
        rows_for(false)
    };
    let capacity = if fits_all { houses } else { across * rows };
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
    let across = across.min(shown.max(1));
    let arrows = if fits_all { 0 } else { 2 * ARROW };
    let row_width = across as u16 * (house_w + gap) + gap + store_w + arrows;
    let row_h = row_height(small);
    let box_h = if small { SMALL_BOX_HEIGHT } else { BOX_HEIGHT };
    let board_h = rows as u16 * row_h;
    // The board, its note and (under it when there is room, else over the
    // board) the banner, centred in what is left under the rules.
    // Rows under the frame's top: the rules (2), the board, the note (1),
    // the banner (4).
    let below = if inner.height >= 2 + board_h + 1 + 4 {
        4
    } else {
        0
    };
    let top = inner.y + 2 + (inner.height.saturating_sub(2 + board_h + 1 + below)) / 2;
    let left = inner.x + (inner.width.saturating_sub(row_width)) / 2 + arrows / 2;
    let mut placed = Vec::with_capacity(shown);
    // Read like text, farthest first; only the first row may be short, so
    // that the last row ends with house 1 beside the store.
    let first_row = shown - (rows - 1) * across;
    for (k, house) in (lo..=hi).rev().enumerate() {
        let (row, column) = match k.checked_sub(first_row) {
            None => (0, k),
            Some(after) => (1 + after / across, after % across),
        };
        let x = left + column as u16 * (house_w + gap);
        let y = top + 1 + row as u16 * row_h;
        placed.push((house, Rect::new(x, y, house_w, box_h)));
    }
    let store_x = left + across as u16 * (house_w + gap) + gap + arrows / 2;
    let store = Rect::new(store_x, top + 1 + (rows as u16 - 1) * row_h, store_w, box_h);
    let note = Rect::new(inner.x, top + board_h, inner.width, 1);
    let banner = if below > 0 {
        let banner_y = top + board_h + 1;
        Rect::new(
            inner.x,
            banner_y,
            inner.width,
            (inner.y + inner.height).saturating_sub(banner_y).min(4),
        )
    } else {
        Rect::new(inner.x, top + board_h.saturating_sub(4) / 2, inner.width, 4)
    };
    Some(Layout {
        frame,
        houses: placed,
        store,
        hidden_left,
        hidden_right,
        small,
        note,
        banner,
        status,
        keys,
    })
}

//! The board as a player sees it from the South side: North's row on top,
//! read right to left (`l..g` from the left edge on the 6-pit board), with
//! North's store on the left; South's row below, `a..f` left to right, with
//! South's store on the right. Sowing runs counter-clockwise.
//!
//! [`BoardGeometry`] places every pit and store in an area and maps mouse
//! positions back to pits; [`BoardView`] draws the board into it.

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Position, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Widget};

use crate::rules::{MAX_CELLS, Pit, Rules, Score, Side};
use crate::tui::animation::Animation;
use crate::tui::text;
use crate::tui::theme::Theme;

/// Narrowest pit box: room for a three-digit count between the borders.
const MIN_PIT_WIDTH: u16 = 5;
/// Lowest pit box: borders and the count.
const MIN_PIT_HEIGHT: u16 = 3;
/// Tallest pit box of the classic board (the one an 80×24 terminal
/// shows): borders, the count and two rows of seed marks.
const CLASSIC_PIT_HEIGHT: u16 = 5;
/// Bigger pits for big terminals, largest first, as (width, height): both
/// grow together so that a pit keeps its shape, with a row of seed marks
/// more at each step. The largest is the limit: a 6-pit board is then 125
/// columns wide, and any more room is margin (or log lines).
const BIG_PITS: [(u16, u16); 3] = [(15, 8), (13, 7), (11, 6)];

/// A store's width next to pits `pit_width` wide.
const fn store_width_for(pit_width: u16) -> u16 {
    if pit_width >= 11 {
        pit_width - 1
    } else if pit_width >= 7 {
        8
    } else {
        MIN_PIT_WIDTH + 1
    }
}

/// The width of a board of `pits` pits per side, `pit_width` wide with
/// `gap` columns between boxes.
const fn board_width(pits: u16, pit_width: u16, gap: u16) -> u16 {
    2 * store_width_for(pit_width) + pits * pit_width + (pits + 1) * gap
}

/// Where every part of the board goes inside an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// Each place's box, by [`Pit::index`] (stores included).
    cells: [Rect; MAX_CELLS],
    cell_count: usize,
    /// North's name line, above North's row, as wide as the whole area:
    /// a label starts over the first pit when it fits from there, else
    /// further left.
    north_label: Rect,
    /// Where labels start when they fit (over the first pit).
    label_x: u16,
    /// The line between the two rows (what the hand is doing).
    caption: Rect,
    /// South's name line, below South's row (as wide as `north_label`).
    south_label: Rect,
    /// Height of a pit box.
    pit_height: u16,
    /// The board's outline: both stores and the pits between them.
    outer: Rect,
}

/// How large a board's boxes are: what [`BoardGeometry`] lays out, found
/// once for an area ([`BoardSize::fitting`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardSize {
    pit_width: u16,
    /// Columns between two boxes (0 or 1).
    gap: u16,
    pit_height: u16,
}

impl BoardSize {
    /// The largest boxes `rules`' board can have in `area`; `None` when
    /// `area` is smaller than [`BoardGeometry::min_width`] ×
    /// [`BoardGeometry::min_height`].
    #[must_use]
    pub fn fitting(area: Rect, rules: &Rules) -> Option<BoardSize> {
        let n = rules.pits() as u16;
        let room = area.height.saturating_sub(3) / 2;
        if room < MIN_PIT_HEIGHT {
            return None;
        }
        // Odd widths keep counts and seed marks centred. Big pits when both
        // their width and their height fit; else the classic board: wide
        // pits with a gap between boxes while there is room, then touching,
        // then narrow.
        let big = BIG_PITS
            .into_iter()
            .find(|&(w, h)| h <= room && board_width(n, w, 1) <= area.width)
            .map(|(w, h)| (w, 1, h));
        let classic = || {
            [
                (9, 1),
                (7, 1),
                (9, 0),
                (7, 0),
                (MIN_PIT_WIDTH, 1),
                (MIN_PIT_WIDTH, 0),
            ]
            .into_iter()
            .find(|&(w, gap)| board_width(n, w, gap) <= area.width)
            .map(|(w, gap)| (w, gap, room.min(CLASSIC_PIT_HEIGHT)))
        };
        let (pit_width, gap, pit_height) = big.or_else(classic)?;
        Some(BoardSize {
            pit_width,
            gap,
            pit_height,
        })
    }

    /// The board's height at this size.
    #[must_use]
    pub fn height(self) -> u16 {
        BoardGeometry::height(self.pit_height)
    }
}

impl BoardGeometry {
    /// The line between the two rows (what the hand is doing).
    #[must_use]
    pub fn caption(&self) -> Rect {
        self.caption
    }

    /// The board's outline: both stores and the pits between them.
    #[must_use]
    pub fn outer(&self) -> Rect {
        self.outer
    }

    /// Everything the board draws on: the outline, the caption and both
    /// name lines.
    pub(crate) fn bounds(&self) -> Rect {
        self.outer
            .union(self.caption)
            .union(self.north_label)
            .union(self.south_label)
    }

    /// Height of a pit box.
    #[must_use]
    pub fn pit_height(&self) -> u16 {
        self.pit_height
    }

    /// The narrowest area a board with `pits` pits per side fits in.
    #[must_use]
    pub const fn min_width(pits: usize) -> u16 {
        2 * (MIN_PIT_WIDTH + 1) + pits as u16 * MIN_PIT_WIDTH
    }

    /// The board's height when pit boxes are `pit_height` rows tall.
    #[must_use]
    pub const fn height(pit_height: u16) -> u16 {
        2 * pit_height + 3
    }

    /// The lowest area a board fits in.
    #[must_use]
    pub const fn min_height() -> u16 {
        BoardGeometry::height(MIN_PIT_HEIGHT)
    }

    /// The height of the classic board, the tallest an 80×24 terminal
    /// shows; bigger boards need `BIG_PITS`' width too.
    #[must_use]
    pub const fn classic_height() -> u16 {
        BoardGeometry::height(CLASSIC_PIT_HEIGHT)
    }

    /// Lays out `rules`' board, centred in `area`, as large as fits; `None`
    /// when `area` is smaller than [`min_width`](Self::min_width) ×
    /// [`min_height`](Self::min_height).
    #[must_use]
    pub fn new(area: Rect, rules: &Rules) -> Option<BoardGeometry> {
        BoardSize::fitting(area, rules).map(|size| BoardGeometry::place(area, rules, size))
    }

    /// Lays out `rules`' board at `size`, centred in `area` (which holds it:
    /// `size` is what [`BoardSize::fitting`] found for an area at least as
    /// wide and as tall).
    #[must_use]
    pub fn place(area: Rect, rules: &Rules, size: BoardSize) -> BoardGeometry {
        let n = rules.pits() as u16;
        let BoardSize {
            pit_width,
            gap,
            pit_height,
        } = size;
        let store_width = store_width_for(pit_width);
        let total = board_width(n, pit_width, gap);
        let x0 = area.x + area.width.saturating_sub(total) / 2;
        let y0 = area.y
            + area
                .height
                .saturating_sub(BoardGeometry::height(pit_height))
                / 2;
        let column_x = |column: u16| x0 + store_width + gap + column * (pit_width + gap);
        let north_y = y0 + 1;
        let caption_y = north_y + pit_height;
        let south_y = caption_y + 1;

        let mut cells = [Rect::default(); MAX_CELLS];
        for column in 0..n {
            let north = rules
                .pit(Side::North, (n - column) as usize)
                .expect("in range");
            let south = rules
                .pit(Side::South, column as usize + 1)
                .expect("in range");
            cells[north.index()] = Rect::new(column_x(column), north_y, pit_width, pit_height);
            cells[south.index()] = Rect::new(column_x(column), south_y, pit_width, pit_height);
        }
        let store_height = 2 * pit_height + 1;
        cells[rules.store(Side::North).index()] = Rect::new(x0, north_y, store_width, store_height);
        cells[rules.store(Side::South).index()] =
            Rect::new(x0 + total - store_width, north_y, store_width, store_height);

        let inner_x = x0 + store_width;
        let inner_width = total - 2 * store_width;
        BoardGeometry {
            cells,
            cell_count: rules.cells(),
            north_label: Rect::new(area.x, y0, area.width, 1),
            label_x: inner_x,
            caption: Rect::new(inner_x, caption_y, inner_width, 1),
            south_label: Rect::new(area.x, south_y + pit_height, area.width, 1),
            pit_height,
            outer: Rect::new(x0, north_y, total, store_height),
        }
    }

    /// The box of a pit or store.
    #[must_use]
    pub fn cell(&self, pit: Pit) -> Rect {
        self.cells[pit.index()]
    }

    /// The pit or store drawn at a screen position, if any.
    #[must_use]
    pub fn hit(&self, position: Position) -> Option<Pit> {
        self.cells[..self.cell_count]
            .iter()
            .position(|r| r.contains(position))
            .map(|i| Pit::new(i as u8))
    }
}

/// Everything the board shows at one moment.
#[derive(Clone, Debug)]
pub struct BoardView<'a> {
    /// The rules in force (board size, letters).
    rules: &'a Rules,
    /// The counts to show, in the rules core's layout (mid-animation
    /// counts while a move is being shown).
    counts: &'a [u16],
    /// South's and North's names.
    names: [&'a str; 2],
    /// Each side's score.
    scores: Score,
    /// Whose turn it is (`None` once the round is over or mid-animation).
    to_move: Option<Side>,
    /// Whose move is being sown, if one is: their label keeps its marker
    /// and its place, so that nothing jumps while the seeds go round.
    sowing: Option<Side>,
    /// The pit under the cursor.
    selected: Option<Pit>,
    /// Places a seed is moving through right now.
    highlight: [Option<Pit>; 3],
    /// What the hand is doing (empty: show where each store is).
    caption: Line<'a>,
    /// What the stores are called in that caption ("store", or Oware's
    /// "captures").
    pile_word: &'a str,
    /// The styles.
    theme: &'a Theme,
    /// Where everything goes, when the screen's layout already knows (else
    /// laid out in the area drawn in).
    geometry: Option<&'a BoardGeometry>,
}

/// Seed marks for `count` seeds in boxes `width` wide and `rows` high, in
/// one style at every count (packed `•`, as in solitaire), so that 24 and
/// 25 seeds look alike but for one mark; when the box is full its last
/// mark is a `+` (the count beside says how many). So a big store never
/// looks empty next to a smaller full one.
fn seed_rows(count: u16, width: u16, rows: u16) -> Option<Vec<String>> {
    if count == 0 || width == 0 || rows == 0 {
        return None;
    }
    let per_row = width;
    let overflow = count > per_row * rows;
    let mut left = count.min(per_row * rows);
    let mut lines = Vec::new();
    while left > 0 {
        let here = left.min(per_row);
        lines.push("•".repeat(usize::from(here)));
        left -= here;
    }
    if overflow && let Some(last) = lines.last_mut() {
        last.pop();
        last.push('+');
    }
    Some(lines)
}

impl<'a> BoardView<'a> {
    /// The board of `rules` holding `counts` (in the rules core's layout),
    /// with the players' `names` and `scores`, drawn with `theme`: nobody
    /// to move, nothing sown, selected or captioned until said so.
    #[must_use]
    pub fn new(
        rules: &'a Rules,
        counts: &'a [u16],
        names: [&'a str; 2],
        scores: Score,
        theme: &'a Theme,
    ) -> BoardView<'a> {
        BoardView {
            rules,
            counts,
            names,
            scores,
            to_move: None,
            sowing: None,
            selected: None,
            highlight: [None; 3],
            caption: Line::default(),
            pile_word: "store",
            theme,
            geometry: None,
        }
    }

    /// Draws the board where `geometry` says (the screen's layout, which
    /// laid it out in the area it is drawn in), so that a frame lays the
    /// board out once.
    #[must_use]
    pub fn laid_out(mut self, geometry: &'a BoardGeometry) -> BoardView<'a> {
        self.geometry = Some(geometry);
        self
    }

    /// Whose turn it is (`None` once the round is over or mid-animation).
    #[must_use]
    pub fn to_move(mut self, side: Option<Side>) -> BoardView<'a> {
        self.to_move = side;
        self
    }

    /// The move being sown, if one is: its mover's label keeps its marker
    /// and its place, and the places a seed is moving through stand out.
    #[must_use]
    pub fn sowing(mut self, animation: Option<&Animation>) -> BoardView<'a> {
        self.sowing = animation.map(|a| a.mover(self.rules));
        self.highlight = animation.map_or([None; 3], Animation::highlight);
        self
    }

    /// What the stores are called when the caption points at them:
    /// "store" (the default), or "captures" where they hold the seeds a
    /// player has captured (Oware).
    #[must_use]
    pub fn piles(mut self, word: &'a str) -> BoardView<'a> {
        self.pile_word = word;
        self
    }

    /// The pit under the cursor.
    #[must_use]
    pub fn selected(mut self, pit: Option<Pit>) -> BoardView<'a> {
        self.selected = pit;
        self
    }

    /// What the hand is doing (empty: where each store is).
    #[must_use]
    pub fn caption(mut self, caption: Line<'a>) -> BoardView<'a> {
        self.caption = caption;
        self
    }
}

impl BoardView<'_> {
    fn is_highlighted(&self, pit: Pit) -> bool {
        self.highlight.contains(&Some(pit))
    }

    fn render_pit(&self, pit: Pit, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let active = self.is_highlighted(pit);
        let selected = self.selected == Some(pit);
        let letter = self.rules.letter(pit).unwrap_or(' ');
        let side_style = theme.side(self.rules.owner(pit));
        let (border_type, border_style) = if active {
            (BorderType::Thick, theme.active)
        } else if selected {
            (BorderType::Double, theme.selected)
        } else {
            (BorderType::Rounded, side_style)
        };
        // In the pit being sown everything is in the one highlight style:
        // other colours on its background would be hard to read.
        let title = if selected {
            Line::from(Span::styled(format!("▸{letter}◂"), theme.selected))
        } else if active {
            Line::from(Span::styled(letter.to_string(), theme.active))
        } else {
            Line::from(Span::styled(
                letter.to_string(),
                side_style.add_modifier(Modifier::BOLD),
            ))
        };
        let mut block = Block::bordered()
            .border_type(border_type)
            .border_style(border_style);
        block = match self.rules.owner(pit) {
            Side::North => block.title_top(title.centered()),
            Side::South => block.title_bottom(title.centered()),
        };
        let inner = block.inner(area);
        block.render(area, buf);
        if active {
            buf.set_style(inner, theme.active);
        }
        let count = self.counts[pit.index()];
        let count_style = if active { theme.active } else { theme.count };
        let seed_style = if active { theme.active } else { side_style };
        let mut lines = vec![Line::styled(count.to_string(), count_style)];
        if let Some(marks) = seed_rows(count, inner.width, inner.height.saturating_sub(1)) {
            lines.extend(marks.into_iter().map(|m| Line::styled(m, seed_style)));
        }
        // North's pits read from the top, South's from the bottom, so both
        // counts sit next to the caption line in the middle of the board.
        if self.rules.owner(pit) == Side::South {
            lines.reverse();
            let pad = inner.height.saturating_sub(lines.len() as u16);
            let mut padded = vec![Line::default(); usize::from(pad)];
            padded.extend(lines);
            lines = padded;
        }
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .render(inner, buf);
    }

    fn render_store(&self, side: Side, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let store = self.rules.store(side);
        let active = self.is_highlighted(store);
        let side_style = theme.side(side);
        let (border_type, border_style) = if active {
            (BorderType::Thick, theme.active)
        } else {
            (BorderType::Rounded, side_style)
        };
        let block = Block::bordered()
            .border_type(border_type)
            .border_style(border_style);
        let inner = block.inner(area);
        block.render(area, buf);
        if active {
            buf.set_style(inner, theme.active);
        }
        let count = self.counts[store.index()];
        let middle = inner.height / 2;
        let count_style = if active { theme.active } else { theme.count };
        let mut lines = vec![Line::default(); usize::from(inner.height)];
        lines[usize::from(middle)] = Line::styled(count.to_string(), count_style);
        // Seeds pile up from the bottom, around the count.
        if let Some(marks) = seed_rows(count, inner.width, inner.height.saturating_sub(1)) {
            let free_rows = (0..inner.height).rev().filter(|&r| r != middle);
            for (row, mark) in free_rows.zip(marks) {
                lines[usize::from(row)] =
                    Line::styled(mark, if active { theme.active } else { side_style });
            }
        }
        Paragraph::new(lines)
            .alignment(Alignment::Center)
            .render(inner, buf);
    }

    /// `side`'s name line, worded to fit `width` columns: the score always
    /// shows; the side's name, "to move" and finally the end of a long
    /// player name give way first.
    fn label(&self, side: Side, width: usize) -> Line<'static> {
        let theme = self.theme;
        let name = self.names[side.index()];
        let score = self.scores.of(side);
        // "to move" and "sowing…" take the same room: the label does not
        // move when a sowing starts or ends.
        let doing = if self.to_move == Some(side) {
            Some("to move")
        } else if self.sowing == Some(side) {
            Some("sowing…")
        } else {
            None
        };
        let moving = doing.is_some();
        let style = if moving {
            theme.mover
        } else {
            theme.title.patch(theme.side(side))
        };
        // A seat without a name is already called by its side, and so is
        // one the game named after it ("Computer (hard), North").
        let side_too = !name.ends_with(&side.to_string());
        let mut wordings: Vec<(String, String)> = Vec::new();
        let who = |name: &str| match doing {
            Some(doing) => format!("▶ {name} {doing} "),
            None => format!("  {name}"),
        };
        if side_too {
            wordings.push((who(name), format!("  {side} · score {score}")));
        }
        wordings.push((who(name), format!("  score {score}")));
        let short_who = |name: &str| {
            if moving {
                format!("▶ {name}")
            } else {
                format!("  {name}")
            }
        };
        wordings.push((short_who(name), format!(" {score}")));
        let fits = |(who, details): &(String, String)| {
            text::columns(who) + text::columns(details) <= width
        };
        let (who, details) = match wordings.iter().find(|w| fits(w)) {
            Some(w) => w.clone(),
            None => {
                // Cut a long name, marking the cut.
                let (_, details) = wordings.last().cloned().unwrap_or_default();
                let room = width.saturating_sub(text::columns(&short_who("")) + details.len() + 1);
                let cut: String = name.chars().take(room).collect();
                (short_who(&format!("{cut}…")), details)
            }
        };
        Line::from(vec![
            Span::styled(who, style),
            Span::styled(details, theme.text),
        ])
    }

    /// Draws `side`'s label on its line, starting over the first pit when
    /// it fits from there.
    fn render_label(&self, side: Side, area: Rect, label_x: u16, buf: &mut Buffer) {
        let label = self.label(side, usize::from(area.width));
        let width = label.width() as u16;
        let x = label_x.min(area.right().saturating_sub(width)).max(area.x);
        label.render(Rect::new(x, area.y, area.right() - x, 1), buf);
    }
}

/// Whose store (`word`) `name`'s is, as a caption reads it: "Alice's
/// store", and "store of Computer (hard)" where a possessive would read
/// oddly.
fn store_of(name: &str, word: &str) -> String {
    if name.ends_with(')') {
        format!("{word} of {name}")
    } else {
        format!("{name}'s {word}")
    }
}

/// The captions pointing at North's store (left) and South's (right) in
/// `width` columns: "◀ Michael's store" and "Alice's store ▶" where they
/// fit, else the names alone (cut if need be), else the arrows alone.
fn store_captions(names: [&str; 2], word: &str, width: usize) -> [String; 2] {
    let [south, north] = names;
    let fits = |[left, right]: &[String; 2]| text::columns(left) + text::columns(right) < width;
    let full = [
        format!("◀ {}", store_of(north, word)),
        format!("{} ▶", store_of(south, word)),
    ];
    if fits(&full) {
        return full;
    }
    let names = [format!("◀ {north}"), format!("{south} ▶")];
    if fits(&names) {
        return names;
    }
    // Each name gets half the line, less its arrow and a space.
    let half = (width.saturating_sub(1) / 2).saturating_sub(3);
    let cut = |name: &str| -> String {
        if text::columns(name) <= half {
            name.to_string()
        } else {
            let kept: String = name.chars().take(half.saturating_sub(1)).collect();
            format!("{kept}…")
        }
    };
    let cut_names = [format!("◀ {}", cut(north)), format!("{} ▶", cut(south))];
    if half >= 2 && fits(&cut_names) {
        return cut_names;
    }
    ["◀".to_string(), "▶".to_string()]
}

impl Widget for &BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        debug_assert!(
            self.geometry
                .is_none_or(|geometry| area.union(geometry.bounds()) == area),
            "the board was laid out outside the area it is drawn in"
        );
        let Some(geometry) = self
            .geometry
            .copied()
            .or_else(|| BoardGeometry::new(area, self.rules))
        else {
            return;
        };
        for side in Side::BOTH {
            for pit in self.rules.pits_of(side) {
                self.render_pit(pit, geometry.cell(pit), buf);
            }
            self.render_store(side, geometry.cell(self.rules.store(side)), buf);
        }
        self.render_label(Side::North, geometry.north_label, geometry.label_x, buf);
        self.render_label(Side::South, geometry.south_label, geometry.label_x, buf);
        if self.caption.spans.is_empty() {
            let caption = geometry.caption;
            let [left, right] =
                store_captions(self.names, self.pile_word, usize::from(caption.width));
            Line::styled(left, self.theme.dim)
                .left_aligned()
                .render(caption, buf);
            Line::styled(right, self.theme.dim)
                .right_aligned()
                .render(caption, buf);
        } else {
            self.caption
                .clone()
                .centered()
                .render(geometry.caption, buf);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_captions_keep_the_names_on_narrow_boards() {
        let names = ["Alice", "Michael"];
        assert_eq!(
            store_captions(names, "store", 60),
            ["◀ Michael's store", "Alice's store ▶"]
        );
        assert_eq!(store_captions(names, "store", 20), ["◀ Michael", "Alice ▶"]);
        assert_eq!(store_captions(names, "store", 14), ["◀ Mi…", "Al… ▶"]);
        assert_eq!(store_captions(names, "store", 6), ["◀", "▶"]);
        assert_eq!(
            store_captions(["Alice", "Computer (hard)"], "store", 70),
            ["◀ store of Computer (hard)", "Alice's store ▶"]
        );
    }

    #[test]
    fn north_reads_right_to_left_above_south() {
        let rules = Rules::KALAH;
        let g = BoardGeometry::new(Rect::new(0, 0, 80, 13), &rules).unwrap();
        let at = |c| g.cell(rules.pit_by_letter(c).unwrap());
        assert!(at('l').x < at('g').x, "North's row runs l..g left to right");
        assert!(at('a').x < at('f').x);
        assert_eq!(at('a').x, at('l').x, "a sits under l, its opposite");
        assert!(at('l').y < at('a').y);
        let north_store = g.cell(rules.store(Side::North));
        let south_store = g.cell(rules.store(Side::South));
        assert!(north_store.right() <= at('l').x);
        assert!(south_store.x >= at('f').right());
    }

    #[test]
    fn clicks_map_back_to_the_pit_under_them() {
        // Board rows as the screen layout gives them, from a low 80-column
        // screen to a huge one.
        let areas = [
            Rect::new(3, 2, 80, 20),
            Rect::new(0, 4, 100, 15),
            Rect::new(0, 4, 120, 17),
            Rect::new(0, 4, 160, 19),
            Rect::new(0, 4, 200, 19),
            Rect::new(7, 4, 300, 40),
        ];
        for pits in [1, 6, 10, 12] {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            for area in areas {
                let g = BoardGeometry::new(area, &rules).unwrap();
                for place in 0..rules.cells() {
                    let pit = Pit::new(place as u8);
                    let r = g.cell(pit);
                    assert_eq!(area.intersection(r), r, "{pits} pits in {area:?}");
                    // Every cell of the box, borders included, is this pit
                    // (so no two boxes overlap).
                    for position in r.positions() {
                        assert_eq!(g.hit(position), Some(pit), "{pits} pits in {area:?}");
                    }
                }
                assert_eq!(g.hit(Position::new(area.x, area.y)), None);
                assert_eq!(
                    g.hit(g.caption.as_position()),
                    None,
                    "the caption is not a pit"
                );
            }
        }
    }

    #[test]
    fn bigger_pits_show_more_seed_marks() {
        let rules = Rules::KALAH;
        let a = rules.pit_by_letter('a').unwrap();
        let mut counts = vec![0; rules.cells()];
        counts[a.index()] = 30;
        let theme = Theme::monochrome();
        let view = BoardView::new(
            &rules,
            &counts,
            ["Alice", "Michael"],
            Score::default(),
            &theme,
        );
        // (seed marks, + marks) drawn in pit a on a board row `width` ×
        // `height`, as an 80×24 and a 120×40 screen give it.
        let marks = |width, height| {
            let area = Rect::new(0, 0, width, height);
            let mut buf = Buffer::empty(area);
            (&view).render(area, &mut buf);
            let cell = BoardGeometry::new(area, &rules).unwrap().cell(a);
            let symbols: String = cell.positions().map(|p| buf[p].symbol()).collect();
            (symbols.matches('•').count(), symbols.matches('+').count())
        };
        assert_eq!(marks(80, 13), (13, 1), "two rows of 7, full");
        assert_eq!(marks(120, 17), (30, 0), "four rows of 11: all 30 show");
    }

    #[test]
    fn every_board_size_fits_its_minimum_and_no_less() {
        for pits in 1..=crate::rules::MAX_PITS {
            let rules = Rules::KALAH.with_pits(pits).unwrap();
            let (w, h) = (BoardGeometry::min_width(pits), BoardGeometry::min_height());
            let g = BoardGeometry::new(Rect::new(0, 0, w, h), &rules).unwrap();
            let all = Rect::new(0, 0, w, h);
            for place in 0..rules.cells() {
                let r = g.cell(Pit::new(place as u8));
                assert_eq!(all.intersection(r), r, "{pits} pits: {place} overflows");
            }
            assert!(BoardGeometry::new(Rect::new(0, 0, w - 1, h), &rules).is_none());
            assert!(BoardGeometry::new(Rect::new(0, 0, w, h - 1), &rules).is_none());
        }
        assert!(BoardGeometry::min_width(12) <= 80);
    }

    #[test]
    fn seed_marks_spread_then_pack_then_fill_with_a_plus() {
        // One style at every count: 3, 9, 24 and 25 seeds all packed.
        assert_eq!(seed_rows(3, 7, 2), Some(vec!["•••".to_string()]));
        assert_eq!(seed_rows(5, 7, 2).unwrap().len(), 1);
        let style = |n| seed_rows(n, 6, 8).unwrap()[0].clone();
        assert_eq!(style(24), style(25));
        assert_eq!(style(24), "••••••");
        assert_eq!(seed_rows(0, 7, 2), None);
        assert_eq!(seed_rows(3, 3, 1), Some(vec!["•••".to_string()]));
        assert_eq!(
            seed_rows(9, 7, 2),
            Some(vec!["•••••••".to_string(), "••".to_string()])
        );
        // A store 6 wide and 8 high: 22 and 26 seeds both show, 26 more.
        let marks = |n| {
            let rows = seed_rows(n, 6, 8).unwrap().concat();
            rows.chars().filter(|&c| c == '•').count()
        };
        assert_eq!((marks(22), marks(26)), (22, 26));
        // More than the box holds: full, ending in +.
        let full = seed_rows(60, 7, 2).unwrap();
        assert_eq!(full, ["•••••••", "••••••+"]);
    }
}

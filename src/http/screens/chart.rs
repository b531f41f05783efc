//! Bar charts drawn on the server as inline SVG: no script, no style
//! attribute (colours come from the style sheet's classes, which the page's
//! `style-src 'self'` allows), integer coordinates computed from minor units
//! without floating point. Each chart carries a title and a description for
//! assistive technology, and its figures as a table beneath it.

use maud::{html, Markup};

use crate::rules::iso::Currency;
use crate::rules::locale::{self, Lang};

const WIDTH: i64 = 720;
const HEIGHT: i64 = 260;
/// Room for the amount axis on the left and the labels beneath.
const LEFT: i64 = 84;
const RIGHT: i64 = 8;
const TOP: i64 = 12;
const BOTTOM: i64 = 28;

/// One series of bars: its name in the legend and table, and the style
/// sheet's class that colours it.
pub struct Series<'a> {
    pub name: &'a str,
    pub class: &'static str,
}

/// One group of bars: its short label under the bars, its full label in
/// the table, and one value (minor units) per series.
pub struct Group {
    pub label: String,
    pub full: String,
    pub values: Vec<i64>,
}

/// A chart: groups of bars, one bar per series in each group.
pub struct Bars<'a> {
    /// Unique on the page; names the title and description.
    pub id: &'a str,
    pub title: &'a str,
    pub description: String,
    pub series: Vec<Series<'a>>,
    pub groups: Vec<Group>,
    pub currency: &'a Currency,
}

/// The axis: the step between gridlines and the top of the scale, both in
/// minor units. The step is 1, 2 or 5 times a power of ten, and a whole
/// number of currency units once the figures reach one unit.
fn scale(max: i64, unit: i64) -> (i64, i64) {
    let max = max.max(1);
    let raw = ceil_div(max, 4);
    let mut magnitude: i64 = 1;
    while magnitude.saturating_mul(10) <= raw {
        magnitude *= 10;
    }
    let step = [1, 2, 5, 10]
        .iter()
        .map(|m| magnitude.saturating_mul(*m))
        .find(|s| *s >= raw)
        .unwrap_or(raw);
    let step = if max >= unit && step % unit != 0 {
        ceil_div(step, unit) * unit
    } else {
        step
    };
    (step, ceil_div(max, step).saturating_mul(step))
}

/// `a / b` rounded up, for positive `a` and `b`.
fn ceil_div(a: i64, b: i64) -> i64 {
    a / b + i64::from(a % b != 0)
}

/// The height in the drawing of `value` on a scale up to `top`.
fn height(value: i64, top: i64) -> i64 {
    let plot = i128::from(HEIGHT - TOP - BOTTOM);
    (i128::from(value.clamp(0, top)) * plot / i128::from(top.max(1))) as i64
}

/// An axis figure: whole currency units when the step allows.
fn tick(lang: Lang, value: i64, step: i64, currency: &Currency) -> String {
    let unit = 10_i64.pow(u32::from(currency.exponent()));
    if step % unit == 0 {
        locale::number(lang, value / unit, 0)
    } else {
        locale::number(lang, value, currency.exponent())
    }
}

/// The chart as an SVG figure with its legend and its figures as a table.
pub fn bars(lang: Lang, chart: &Bars) -> Markup {
    let unit = 10_i64.pow(u32::from(chart.currency.exponent()));
    let max = chart
        .groups
        .iter()
        .flat_map(|group| group.values.iter().copied())
        .max()
        .unwrap_or(0);
    let (step, top) = scale(max, unit);
    let base = HEIGHT - BOTTOM;
    let groups = chart.groups.len().max(1) as i64;
    let band = (WIDTH - LEFT - RIGHT) / groups;
    let per = chart.series.len().max(1) as i64;
    // Bars fill three quarters of a group's band, side by side.
    let bar = (band * 3 / 4 / per).max(1);
    let pad = (band - bar * per) / 2;
    let title_id = format!("{}-title", chart.id);
    let desc_id = format!("{}-desc", chart.id);
    html! {
        figure.chart {
            svg xmlns="http://www.w3.org/2000/svg" role="img"
                aria-labelledby=(format!("{title_id} {desc_id}"))
                viewBox=(format!("0 0 {WIDTH} {HEIGHT}")) preserveAspectRatio="xMinYMin meet" {
                title id=(title_id) { (chart.title) }
                desc id=(desc_id) { (chart.description) }
                @for i in 0..=(top / step) {
                    @let y = base - height(i * step, top);
                    line.grid x1=(LEFT) x2=(WIDTH - RIGHT) y1=(y) y2=(y) {}
                    text.axis x=(LEFT - 6) y=(y + 4) text-anchor="end" {
                        (tick(lang, i * step, step, chart.currency))
                    }
                }
                @for (g, group) in chart.groups.iter().enumerate() {
                    @let x0 = LEFT + g as i64 * band + pad;
                    @for (s, value) in group.values.iter().enumerate() {
                        @let h = height(*value, top);
                        rect class=(chart.series.get(s).map_or("", |series| series.class))
                            x=(x0 + s as i64 * bar) y=(base - h) width=(bar) height=(h) {}
                    }
                    text.label x=(LEFT + g as i64 * band + band / 2) y=(HEIGHT - 8) text-anchor="middle" { (group.label) }
                }
                line.baseline x1=(LEFT) x2=(WIDTH - RIGHT) y1=(base) y2=(base) {}
            }
            figcaption {
                ul.legend {
                    @for series in &chart.series {
                        li { span class=(format!("swatch {}", series.class)) aria-hidden="true" {} (series.name) }
                    }
                    li.muted { (lang.pick("Amounts in ", "Beträge in ")) (chart.currency.as_str()) }
                }
            }
            details {
                summary { (lang.pick("The figures as a table", "Die Zahlen als Tabelle")) }
                table {
                    caption.visually-hidden { (chart.title) }
                    thead {
                        tr {
                            th scope="col" { (lang.pick("Period", "Zeitraum")) }
                            @for series in &chart.series {
                                th.amount scope="col" { (series.name) }
                            }
                        }
                    }
                    tbody {
                        @for group in &chart.groups {
                            tr {
                                th scope="row" { (group.full) }
                                @for value in &group.values {
                                    td.amount { (locale::amount(lang, *value, chart.currency)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::http::screens::chart::*;

    #[test]
    fn the_scale_steps_by_one_two_or_five_and_covers_the_largest_figure() {
        // 1,469.13 in cents: steps of 500.00, top 1,500.00.
        assert_eq!(scale(146_913, 100), (50_000, 150_000));
        assert_eq!(scale(100_000, 100), (50_000, 100_000));
        assert_eq!(scale(0, 100), (1, 1));
        // Below one unit the step may be a cent.
        assert_eq!(scale(7, 100), (2, 8));
        // A currency without decimals.
        assert_eq!(scale(12_345, 1), (5_000, 15_000));
        for max in [1, 9, 99, 101, 999_999, 123_456_789, i64::MAX / 8] {
            let (step, top) = scale(max, 100);
            assert!(top >= max && top - step < max, "{max}: {step} {top}");
            assert!(top / step <= 10, "{max}: {step} {top}");
        }
    }

    #[test]
    fn heights_are_proportional_and_stay_in_the_plot() {
        let plot = HEIGHT - TOP - BOTTOM;
        assert_eq!(height(150_000, 150_000), plot);
        assert_eq!(height(75_000, 150_000), plot / 2);
        assert_eq!(height(-5, 150_000), 0);
        assert_eq!(height(i64::MAX, i64::MAX), plot);
    }
}

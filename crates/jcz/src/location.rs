//! JCloisterZone's feature locations and ours.
//!
//! JCloisterZone names the space a feature takes on a tile: the edges a road
//! or city reaches (`N`, `WE`, `SE`, `_S` for all but south, `NWSE`), the
//! half-edges a field touches (`NL.NR.EL`, where `NL` is the left half of the
//! north edge seen from the tile's centre, our `NNW`), or `I` for the
//! monastery (`CLOISTER` in JCloisterZone 5 before 5.7) and the garden. A pointer in a saved game names the whole feature of the placed
//! tile as it lies on the board (after rotation), as our names do; ours name
//! one edge or half-edge of it.

use carcassonne_engine::geometry::{HalfEdge, Rotation, Side};
use carcassonne_engine::tile::NO_PIECE;
use carcassonne_engine::{FeatureKind, JettyPair, Location, TileKind};

/// Names of edge sets, by our side mask (bit per [`Side`]: N 1, E 2, S 4, W 8).
const SIDE_NAMES: [&str; 16] =
    ["", "N", "E", "NE", "S", "NS", "SE", "_W", "W", "NW", "WE", "_S", "SW", "_E", "_N", "NWSE"];

/// Names of the half-edges, in our [`HalfEdge`] order (NNW, NNE, ENE, ..., WNW).
const HALF_NAMES: [&str; 8] = ["NL", "NR", "EL", "ER", "SL", "SR", "WL", "WR"];

/// JCloisterZone's name of a set of edges (a road's or city's location).
pub(crate) fn side_name(mask: u8) -> &'static str {
    SIDE_NAMES[(mask & 15) as usize]
}

/// JCloisterZone's name of a set of half-edges (a field's location).
pub(crate) fn halves_name(mask: u8) -> String {
    let parts: Vec<&str> = (0..8).filter(|i| mask & (1 << i) != 0).map(|i| HALF_NAMES[i]).collect();
    parts.join(".")
}

/// A location as a saved game writes it, taken apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) struct JczLocation {
    /// Edges (our side bits).
    pub sides: u8,
    /// Half-edges (our half-edge bits).
    pub halves: u8,
    pub monastery: bool,
    /// `II`: Abbey & Mayor's second field inside a tile.
    pub second: bool,
}

/// Reads a location such as `WE`, `NL.NR.EL` or `I`.
pub(crate) fn parse(text: &str) -> Result<JczLocation, String> {
    let mut loc = JczLocation::default();
    for part in text.split('.') {
        if let Some(i) = SIDE_NAMES.iter().position(|n| !n.is_empty() && *n == part) {
            loc.sides |= i as u8;
        } else if let Some(i) = HALF_NAMES.iter().position(|n| *n == part) {
            loc.halves |= 1 << i;
        } else if part == "I" || part == "CLOISTER" {
            // JCloisterZone 5.7 renamed its monastery location CLOISTER to I.
            loc.monastery = true;
        } else if part == "II" {
            loc.second = true;
        } else if matches!(
            part,
            "III"
                | "IV"
                | "MONASTERY"
                | "AS_ABBOT"
                | "ABBOT"
                | "TOWER"
                | "FLIER"
                | "FLYING_MACHINE"
                | "INNER_FARM"
                | "INNER_FARM_B"
                | "INNER_CITY"
                | "INNER_ROAD"
        ) || part.starts_with("QUARTER_")
        {
            return Err(format!("location {part} is not supported (it belongs to another expansion)"));
        } else {
            return Err(format!("'{text}' is not a JCloisterZone location such as N, WE, NL.NR or I"));
        }
    }
    let kinds = (loc.sides != 0) as u8 + (loc.halves != 0) as u8 + loc.monastery as u8 + loc.second as u8;
    if kinds != 1 {
        return Err(format!("'{text}' mixes edges, half-edges and the monastery"));
    }
    Ok(loc)
}

/// Our name of the feature a saved game's pointer names on a placed tile,
/// checking that the pointer names that feature whole, as JCloisterZone does.
pub(crate) fn to_ours(
    kind: TileKind,
    rot: Rotation,
    feature: Option<&str>,
    loc: JczLocation,
    text: &str,
) -> Result<Location, String> {
    let wanted = match feature {
        None => None,
        Some("Road") => Some(FeatureKind::Road),
        Some("City") => Some(FeatureKind::City),
        Some("Field") => Some(FeatureKind::Field),
        Some("Monastery") | Some("Cloister") => Some(FeatureKind::Monastery),
        Some("Garden") => Some(FeatureKind::Garden),
        Some(other) => return Err(format!("feature {other} is not supported (it belongs to another expansion)")),
    };
    let info = kind.info();
    let o = &info.oriented[rot.quarters() as usize];
    let missing = || format!("tile {kind} turned {rot} has no feature at {text}");
    let (found, location) = if loc.second {
        // `II` names Abbey & Mayor's second field inside the tile.
        if info.inner_field2 == NO_PIECE {
            return Err(missing());
        }
        (FeatureKind::Field, Location::InnerField2)
    } else if loc.monastery && wanted == Some(FeatureKind::Field) {
        // `I` names the middle of the tile: a field there touches no edge.
        if info.inner_field == NO_PIECE {
            return Err(missing());
        }
        (FeatureKind::Field, Location::InnerField)
    } else if loc.monastery && wanted == Some(FeatureKind::Garden) {
        // `I` names the middle of the tile, where the garden lies too.
        if info.garden == NO_PIECE {
            return Err(missing());
        }
        (FeatureKind::Garden, Location::Garden)
    } else if loc.monastery {
        if info.monastery == NO_PIECE {
            return Err(missing());
        }
        (FeatureKind::Monastery, Location::Monastery)
    } else if loc.sides != 0 {
        let first = Side::ALL.into_iter().find(|s| loc.sides & s.bit() != 0).expect("a side");
        let piece = o.side_piece[first.index()];
        if piece == NO_PIECE {
            return Err(missing());
        }
        let whole = Side::ALL.into_iter().filter(|s| o.side_piece[s.index()] == piece).fold(0, |m, s| m | s.bit());
        if whole != loc.sides {
            return Err(format!(
                "tile {kind} turned {rot} has no feature at {text}: its feature there reaches {}",
                side_name(whole)
            ));
        }
        let k = info.def.features[piece as usize].kind;
        (k, if k == FeatureKind::City { Location::City(first) } else { Location::Road(first) })
    } else {
        let first = HalfEdge::ALL.into_iter().find(|h| loc.halves & (1 << h.index()) != 0).expect("a half-edge");
        let piece = o.half_piece[first.index()];
        if piece == NO_PIECE {
            return Err(missing());
        }
        let whole =
            HalfEdge::ALL.into_iter().filter(|h| o.half_piece[h.index()] == piece).fold(0, |m, h| m | 1 << h.index());
        if whole != loc.halves {
            return Err(format!(
                "tile {kind} turned {rot} has no field at {text}: its field there touches {}",
                halves_name(whole)
            ));
        }
        (FeatureKind::Field, Location::Field(first))
    };
    match wanted {
        Some(w) if w != found => Err(format!("tile {kind} turned {rot} has a {found} at {text}, not a {w}")),
        _ => Ok(location),
    }
}

/// JCloisterZone's feature class and location of one of our feature names on
/// a placed tile.
pub(crate) fn to_jcz(kind: TileKind, rot: Rotation, loc: Location) -> (&'static str, String) {
    let o = &kind.info().oriented[rot.quarters() as usize];
    match loc {
        Location::Monastery => ("Monastery", "I".to_string()),
        Location::Garden => ("Garden", "I".to_string()),
        Location::InnerField => ("Field", "I".to_string()),
        Location::InnerField2 => ("Field", "II".to_string()),
        // A barn's corner: JCloisterZone names the field of the tile there.
        Location::Corner(c) => to_jcz(kind, rot, Location::Field(c.halves()[0])),
        Location::Road(s) | Location::City(s) => {
            let piece = o.side_piece[s.index()];
            let whole = Side::ALL.into_iter().filter(|t| o.side_piece[t.index()] == piece).fold(0, |m, t| m | t.bit());
            (if matches!(loc, Location::City(_)) { "City" } else { "Road" }, side_name(whole).to_string())
        }
        Location::Field(h) => {
            let piece = o.half_piece[h.index()];
            let whole = HalfEdge::ALL
                .into_iter()
                .filter(|g| o.half_piece[g.index()] == piece)
                .fold(0, |m, g| m | 1 << g.index());
            ("Field", halves_name(whole))
        }
    }
}

/// The two jetties a ferry's location names (`WE`, `SE`, ...).
pub(crate) fn jetty_pair(text: &str) -> Result<JettyPair, String> {
    let loc = parse(text)?;
    let sides: Vec<Side> = Side::ALL.into_iter().filter(|s| loc.sides & s.bit() != 0).collect();
    match sides[..] {
        [a, b] => Ok(JettyPair::new(a, b).expect("two sides")),
        _ => Err(format!("a ferry joins two jetties; '{text}' does not name two edges")),
    }
}

/// JCloisterZone's location of a ferry.
pub(crate) fn jetty_pair_name(pair: JettyPair) -> &'static str {
    side_name(pair.mask())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(id: &str) -> TileKind {
        TileKind::parse(id).unwrap()
    }

    #[test]
    fn names_round_trip() {
        for mask in 1..16u8 {
            assert_eq!(parse(side_name(mask)).unwrap().sides, mask);
        }
        for mask in 1..=255u8 {
            assert_eq!(parse(&halves_name(mask)).unwrap().halves, mask);
        }
        assert_eq!(side_name(Side::N.bit() | Side::E.bit() | Side::W.bit()), "_S");
        assert_eq!(halves_name(0b1000_0001), "NL.WR");
    }

    #[test]
    fn pointers_name_features_as_they_lie_on_the_board() {
        // E (JCloisterZone's BA/C) turned 180: the city faces south; its
        // field is on the other three edges.
        let e = kind("E");
        let field = parse("NL.NR.EL.ER.WL.WR").unwrap();
        assert_eq!(to_ours(e, Rotation::R180, Some("Field"), field, "").unwrap(), Location::Field(HalfEdge::Nnw));
        assert_eq!(to_jcz(e, Rotation::R180, Location::Field(HalfEdge::Ese)), ("Field", "NL.NR.EL.ER.WL.WR".into()));
        assert_eq!(
            to_ours(e, Rotation::R180, Some("City"), parse("S").unwrap(), "S").unwrap(),
            Location::City(Side::S)
        );
        // A part of a feature is not the feature.
        assert!(to_ours(e, Rotation::R180, None, parse("NL.NR").unwrap(), "NL.NR").is_err());
        // F turned 90: its city runs north-south.
        let f = kind("F");
        assert_eq!(to_jcz(f, Rotation::R90, Location::City(Side::S)), ("City", "NS".into()));
        assert!(to_ours(f, Rotation::R90, Some("Road"), parse("NS").unwrap(), "NS").is_err());
        // The monastery, with or without the feature class; I since
        // JCloisterZone 5.7, CLOISTER before.
        let a = kind("A");
        assert_eq!(to_jcz(a, Rotation::R90, Location::Monastery), ("Monastery", "I".into()));
        for name in ["I", "CLOISTER"] {
            let monastery = parse(name).unwrap();
            assert_eq!(to_ours(a, Rotation::R90, None, monastery, name).unwrap(), Location::Monastery);
            assert_eq!(to_ours(a, Rotation::R90, Some("Monastery"), monastery, name).unwrap(), Location::Monastery);
        }
        assert!(to_ours(kind("D"), Rotation::R0, Some("Monastery"), parse("I").unwrap(), "I").is_err());
        assert_eq!(to_ours(a, Rotation::R90, None, parse("W").unwrap(), "W").unwrap(), Location::Road(Side::W));
    }

    #[test]
    fn ferries_name_two_jetties() {
        assert_eq!(jetty_pair("WE").unwrap().to_string(), "E-W");
        assert_eq!(jetty_pair("SE").unwrap().to_string(), "E-S");
        assert_eq!(jetty_pair_name("N-W".parse().unwrap()), "NW");
        assert!(jetty_pair("_N").is_err());
        assert!(jetty_pair("NL").is_err());
    }

    #[test]
    fn other_expansions_locations_are_refused() {
        assert!(parse("TOWER").unwrap_err().contains("not supported"));
        assert!(parse("III").unwrap_err().contains("not supported"));
        assert_eq!(parse("II").unwrap(), JczLocation { second: true, ..JczLocation::default() });
        let m2 = kind("M2");
        for rot in Rotation::ALL {
            let ii = to_ours(m2, rot, Some("Field"), parse("II").unwrap(), "II").unwrap();
            assert_eq!(ii, Location::InnerField2);
            assert_eq!(to_jcz(m2, rot, ii), ("Field", "II".into()));
        }
        assert!(parse("XYZ").unwrap_err().contains("not a JCloisterZone location"));
        assert!(parse("N.NL").is_err());
    }
}

//! JCloisterZone's tile ids and ours.
//!
//! JCloisterZone names a tile by its set prefix and a sketch of its edges
//! (`BA/RCr` is our D). Every tile below lies the same way at rotation 0 in
//! both programs, so rotations carry over unchanged (the unit tests check
//! each tile's features against JCloisterZone's description of it).

use carcassonne_engine::TileKind;

/// `(JCloisterZone id, our id)` for the base game, The Ferries, Inns &
/// Cathedrals (set `inns-and-cathedrals:1`), Abbey & Mayor (set
/// `abbey-and-mayor:1`, and its abbey), Traders & Builders (set
/// `traders-and-builders:1`), The River (sets `river/1:1` and, with the
/// garden bend, `river/1:2`), The Abbot's garden tiles (set `basic:2`, see
/// [`GARDEN_TILES`]) and The Labyrinth.
pub(crate) const TILES: &[(&str, &str)] = &[
    ("BA/LR", "A"),
    ("BA/L", "B"),
    ("BA/Cccc+", "C"),
    ("BA/RCr", "D"),
    ("BA/C", "E"),
    ("BA/CFc+", "F"),
    ("BA/CFc.1", "G"),
    ("BA/CFC.2", "H"),
    ("BA/CC.2", "I"),
    ("BA/CRr", "J"),
    ("BA/RrC", "K"),
    ("BA/CRRR", "L"),
    ("BA/Cc+", "M"),
    ("BA/Cc.1", "N"),
    ("BA/CcRr+", "O"),
    ("BA/CcRr", "P"),
    ("BA/Ccc+", "Q"),
    ("BA/Ccc", "R"),
    ("BA/CccR+", "S"),
    ("BA/CccR", "T"),
    ("BA/RFr", "U"),
    ("BA/Rr", "V"),
    ("BA/RRR", "W"),
    ("BA/RRRR", "X"),
    ("FR/CRRR", "FC"),
    ("FR/RRR", "F3"),
    ("FR/RRRR", "F4"),
    ("IC/Cccc.c", "I1"),
    ("IC/LRFR", "I2"),
    ("IC/CCCC", "I3"),
    ("IC/CCC", "I4"),
    ("IC/CRCR", "I5"),
    ("IC/CCc+", "I6"),
    ("IC/C!", "I7"),
    ("IC/CFR", "I8"),
    ("IC/CcR", "I9"),
    ("IC/CRcR+", "I10"),
    ("IC/RCc.i", "I11"),
    ("IC/RrC.i", "I12"),
    ("IC/CcRr+.i", "I13"),
    ("IC/RRR.i", "I14"),
    ("IC/RFr.i", "I15"),
    ("IC/Rr.i", "I16"),
    ("IC/RrRr", "I17"),
    ("AM/C++", "M1"),
    ("AM/CCcc+", "M2"),
    ("AM/CCc+", "M3"),
    ("AM/CCRR", "M4"),
    ("AM/LRRRR", "M5"),
    ("AM/RC", "M6"),
    ("AM/CRr", "M7"),
    ("AM/RrC", "M8"),
    ("AM/C!+", "M9"),
    ("AM/R", "M10"),
    ("AM/Rrr", "M11"),
    ("AM/CRcr+", "M12"),
    ("AM/A", "AB"),
    ("TB/Cc.g", "T1"),
    ("TB/Cc.w", "T2"),
    ("TB/CCc.c", "T3"),
    ("TB/CCc.w", "T4"),
    ("TB/Ccc.g", "T5"),
    ("TB/CcCC.c", "T6"),
    ("TB/CcRR!.c", "T7"),
    ("TB/CcRR.w", "T8"),
    ("TB/CcRC.c", "T9"),
    ("TB/CcRC.g", "T10"),
    ("TB/CcR.c", "T11"),
    ("TB/CcR!.w", "T12"),
    ("TB/CccR.w", "T13"),
    ("TB/CcCc.w", "T14"),
    ("TB/CFc.w", "T15"),
    ("TB/CR", "T16"),
    ("TB/CRc.g", "T17"),
    ("TB/CRc.w", "T18"),
    ("TB/CRcR.w", "T19"),
    ("TB/LRRR", "T20"),
    ("TB/RCc.g", "T21"),
    ("TB/RCc!.g", "T22"),
    ("TB/RRC", "T23"),
    ("TB/RRrr", "T24"),
    ("RI/s", "RS"),
    ("RI.1/I.e", "RL"),
    ("RI.1/CICI", "R1"),
    ("RI.1/CIRI", "R2"),
    ("RI.1/LIRI", "R3"),
    ("RI.1/RIrI", "R4"),
    ("RI.1/IFI", "R5"),
    ("RI.1/CcII", "R6"),
    ("RI.1/RrII", "R7"),
    ("RI.1/II", "R8"),
    ("RI.1/IIG", "R9"),
    ("BA/CG", "EG"),
    ("BA/CFCG", "HG"),
    ("BA/CCG", "IG"),
    ("BA/Cc+G", "MG"),
    ("BA/CcG", "NG"),
    ("BA/CccG", "RG"),
    ("BA/RFrG", "UG"),
    ("BA/RrG", "VG"),
    ("LA/Rrrr", "LA"),
];

/// The River's bend with a garden (set `river/1:2`): without the abbot a
/// plain bend, the second of set `river/1:1`, which a game read here plays
/// (JCloisterZone's lakes make every imported game a second-edition one).
pub(crate) const RIVER_GARDEN_TILE: (&str, &str) = ("RI.1/IIG", "R8");

/// The tiles with a garden of JCloisterZone's `basic:2` set (its third
/// edition), with the plain tile of the same layout and The Abbot's garden
/// tile: with the abbot and its gardens (elements `abbot` and `garden`)
/// each is the garden tile; otherwise a garden is only a picture, and each
/// is the plain tile.
pub(crate) const GARDEN_TILES: &[(&str, &str, &str)] = &[
    ("BA/CG", "E", "EG"),
    ("BA/CFCG", "H", "HG"),
    ("BA/CCG", "I", "IG"),
    ("BA/Cc+G", "M", "MG"),
    ("BA/CcG", "N", "NG"),
    ("BA/CccG", "R", "RG"),
    ("BA/RFrG", "U", "UG"),
    ("BA/RrG", "V", "VG"),
];

/// JCloisterZone's id of The Labyrinth's tile.
pub(crate) const LABYRINTH_TILE: &str = "LA/Rrrr";

/// The garden tiles of JCloisterZone's set `inns-and-cathedrals:2`, which
/// is not read (see `import::read_setup`).
pub(crate) const INNS_GARDEN_TILES: &[&str] = &["IC/CCCCG", "IC/RFr.iG"];

/// JCloisterZone's id of the abbey tile (placed from the hand, never drawn).
pub(crate) const ABBEY_TILE: &str = "AM/A";

/// Which tile sets a saved game plays with.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Sets {
    pub ferries: bool,
    pub gardens: bool,
    /// Inns & Cathedrals (`inns-and-cathedrals:1`).
    pub inns: bool,
    /// Abbey & Mayor's tiles (`abbey-and-mayor:1`).
    pub abbey: bool,
    /// Abbey tiles in the players' hands (the element `abbey`).
    pub abbeys: bool,
    /// Abbey & Mayor's rules: its tiles or any of its elements.
    pub abbey_rules: bool,
    /// Traders & Builders' tiles (`traders-and-builders:1`).
    pub traders: bool,
    /// Traders & Builders' rules: its tiles or any of its elements.
    pub traders_rules: bool,
    /// The River (`river/1:1` or `river/1:2`).
    pub river: bool,
    /// The abbot (the element `abbot`).
    pub abbot: bool,
    /// The Abbot's gardens on the tiles of `basic:2` (the elements `abbot`
    /// and `garden` with that set): its garden tiles are in play.
    pub abbot_gardens: bool,
    /// The Labyrinth (the set `labyrinth`).
    pub labyrinth: bool,
}

/// Our tile kind for a JCloisterZone tile id, or why there is none.
pub(crate) fn to_ours(id: &str, sets: Sets) -> Result<TileKind, String> {
    if id.starts_with("RI") && !sets.river {
        return Err(format!("tile {id} is a tile of The River, whose set river/1 the setup does not name"));
    }
    if id == LABYRINTH_TILE && !sets.labyrinth {
        return Err(format!("tile {id} is the labyrinth, whose set labyrinth the setup does not name"));
    }
    let ours = if id == RIVER_GARDEN_TILE.0 {
        if sets.abbot_gardens {
            return Err(format!(
                "tile {id} is not supported with the abbot's gardens: a game read here plays the second edition's river, whose bend has no garden"
            ));
        }
        Some(RIVER_GARDEN_TILE.1)
    } else if let Some((_, plain, garden)) = GARDEN_TILES.iter().find(|(j, _, _)| *j == id) {
        if !sets.gardens {
            return Err(format!("tile {id} belongs to the set basic:2, which the setup does not name"));
        }
        Some(if sets.abbot_gardens { *garden } else { *plain })
    } else {
        TILES.iter().find(|(j, _)| *j == id).map(|(_, o)| *o)
    };
    let ours = match ours {
        Some(o) => o,
        None if INNS_GARDEN_TILES.contains(&id) => {
            return Err(format!(
                "tile {id} is not supported: it is a garden tile of the set inns-and-cathedrals:2 (only inns-and-cathedrals:1 is read)"
            ))
        }
        None => {
            return Err(match id.split_once('/') {
                    Some(("BA", _)) | Some(("FR", _)) | Some(("IC", _)) | Some(("AM", _)) | Some(("TB", _)) | Some(("RI" | "RI.1" | "LA", _)) => {
                        format!("there is no tile {id} in JCloisterZone's base game, The Ferries, Inns & Cathedrals, Abbey & Mayor, Traders & Builders, The River or The Labyrinth")
                    }
                    Some((set, _)) => format!(
                        "tile {id} is not supported: its set {set} is not the base game (BA), The Ferries (FR), Inns & Cathedrals (IC), Abbey & Mayor (AM), Traders & Builders (TB), The River I (RI.1) or The Labyrinth (LA)"
                    ),
                    None => format!("'{id}' is not a JCloisterZone tile id such as BA/RCr"),
                })
        }
    };
    if id.starts_with("FR/") && !sets.ferries {
        return Err(format!("tile {id} is a lake tile of The Ferries, which the setup does not name"));
    }
    if id == ABBEY_TILE {
        if !sets.abbeys {
            return Err(format!("tile {id} is an abbey, and the setup gives the players none (element abbey)"));
        }
    } else if id.starts_with("AM/") && !sets.abbey {
        return Err(format!(
            "tile {id} is a tile of Abbey & Mayor, whose set abbey-and-mayor:1 the setup does not name"
        ));
    }
    if id.starts_with("IC/") && !sets.inns {
        return Err(format!(
            "tile {id} is a tile of Inns & Cathedrals, whose set inns-and-cathedrals:1 the setup does not name"
        ));
    }
    Ok(TileKind::parse(ours).expect("the table names tiles of the catalogue"))
}

/// JCloisterZone's id of one of our tile kinds.
pub(crate) fn to_jcz(kind: TileKind) -> &'static str {
    TILES
        .iter()
        .find(|(_, o)| *o == kind.id())
        .map(|(j, _)| *j)
        .expect("every kind of the catalogue has a JCloisterZone id")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::location::{halves_name, side_name};
    use carcassonne_engine::catalogue::catalogue;
    use carcassonne_engine::FeatureKind;

    /// JCloisterZone's description of each tile at rotation 0, feature by
    /// feature, in its location names (from its tile definitions; the order
    /// does not matter).
    const JCZ_FEATURES: &[(&str, &str)] = &[
        ("BA/LR", "monastery road:S field:NL.NR.EL.ER.SL.SR.WL.WR"),
        ("BA/L", "monastery field:NL.NR.EL.ER.SL.SR.WL.WR"),
        ("BA/Cccc+", "city+:NWSE"),
        ("BA/RCr", "road:WE city:N field:EL.WR field:ER.SL.SR.WL"),
        ("BA/C", "city:N field:EL.ER.SL.SR.WL.WR"),
        ("BA/CFc+", "city+:WE field:NL.NR field:SL.SR"),
        ("BA/CFc.1", "city:WE field:NL.NR field:SL.SR"),
        ("BA/CFC.2", "city:N city:S field:EL.ER.WL.WR"),
        ("BA/CC.2", "city:N city:W field:EL.ER.SL.SR"),
        ("BA/CRr", "road:SE city:N field:EL.SR.WL.WR field:ER.SL"),
        ("BA/RrC", "road:SW city:N field:EL.ER.SL.WR field:SR.WL"),
        ("BA/CRRR", "road:E road:S road:W city:N field:EL.WR field:SR.WL field:ER.SL"),
        ("BA/Cc+", "city+:NW field:EL.ER.SL.SR"),
        ("BA/Cc.1", "city:NW field:EL.ER.SL.SR"),
        ("BA/CcRr+", "road:SE city+:NW field:EL.SR field:ER.SL"),
        ("BA/CcRr", "road:SE city:NW field:EL.SR field:ER.SL"),
        ("BA/Ccc+", "city+:_S field:SL.SR"),
        ("BA/Ccc", "city:_S field:SL.SR"),
        ("BA/CccR+", "road:S city+:_S field:SL field:SR"),
        ("BA/CccR", "road:S city:_S field:SL field:SR"),
        ("BA/RFr", "road:WE field:NL.NR.EL.WR field:ER.SL.SR.WL"),
        ("BA/Rr", "road:SW field:NL.NR.EL.ER.SL.WR field:SR.WL"),
        ("BA/RRR", "road:E road:S road:W field:NL.NR.EL.WR field:ER.SL field:SR.WL"),
        ("BA/RRRR", "road:N road:E road:S road:W field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
        ("FR/CRRR", "city:N road:W road:S road:E field:EL.WR field:ER.SL field:SR.WL"),
        ("FR/RRR", "road:W road:S road:E field:NL.NR.EL.WR field:ER.SL field:SR.WL"),
        ("FR/RRRR", "road:N road:W road:S road:E field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
        ("IC/Cccc.c", "city:NWSE(cathedral)"),
        ("IC/LRFR", "monastery road:W road:E field:ER.SL.SR.WL field:NL.NR.EL.WR"),
        ("IC/CCCC", "city:N city:W city:E city:S field:I"),
        ("IC/CCC", "city:N city:W city:E field:SL.SR"),
        ("IC/CRCR", "city:N city:S road:W road:E field:ER field:WL field:EL field:WR"),
        ("IC/CCc+", "city+:NW city:S field:EL.ER"),
        ("IC/C!", "city:N field:EL.ER field:SL.SR.WL.WR"),
        ("IC/CFR", "city:N road:S field:SR.WL.WR field:EL.ER.SL"),
        ("IC/CcR", "city:NW road:E field:EL field:ER.SL.SR"),
        ("IC/CRcR+", "city+:WE road:N road:S field:NL field:NR field:SL field:SR"),
        ("IC/RCc.i", "city:NW road:S(inn) field:SR field:EL.ER.SL"),
        ("IC/RrC.i", "city:N road:SW(inn) field:SR.WL field:EL.ER.SL.WR"),
        ("IC/CcRr+.i", "city+:NW road:SE(inn) field:ER.SL field:EL.SR"),
        ("IC/RRR.i", "road:E(inn) road:W road:S field:NL.NR.EL.WR field:SR.WL field:ER.SL"),
        ("IC/RFr.i", "road:WE(inn) field:NL.NR.EL.WR field:ER.SL.SR.WL"),
        ("IC/Rr.i", "road:SW(inn) field:NL.NR.EL.ER.SL.WR field:SR.WL"),
        ("IC/RrRr", "road:NW road:SE field:NL.WR field:ER.SL field:NR.EL.SR.WL"),
        ("AM/C++", "city++:NWSE"),
        ("AM/CCcc+", "city+:NS city:WE field:I field:II"),
        ("AM/CCc+", "city+:N city:WE field:I field:SL.SR"),
        ("AM/CCRR", "city:N city:W road:E road:S field:EL field:SR field:ER.SL"),
        ("AM/LRRRR", "monastery road:N road:W road:S road:E field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
        ("AM/RC", "city:N road:W field:WR field:EL.ER.SL.SR.WL"),
        ("AM/CRr", "city:N road:SE field:SR.WL.WR field:EL field:ER.SL"),
        ("AM/RrC", "city:N road:SW field:EL.ER.SL field:WR field:SR.WL"),
        ("AM/C!+", "city+:W field:NL.NR field:EL.ER field:SL.SR"),
        ("AM/R", "road:S field:NL.NR.EL.ER.SL.SR.WL.WR"),
        ("AM/Rrr", "road:_S field:NL.WR field:NR.EL field:ER.SL.SR.WL"),
        ("AM/CRcr+", "city+:WE road:NS field:SL.SR field:NL field:NR"),
        ("AM/A", "monastery"),
        ("TB/Cc.g", "city:NW[grain] field:EL.ER.SL.SR"),
        ("TB/Cc.w", "city:NW[wine] field:EL.ER.SL.SR"),
        ("TB/CCc.c", "city:WE[cloth] city:S field:NL.NR field:I"),
        ("TB/CCc.w", "city:WE[wine] city:S field:NL.NR field:I"),
        ("TB/Ccc.g", "city:_S[grain] field:SL.SR"),
        ("TB/CcCC.c", "city:NW[cloth] city:S city:E field:I"),
        ("TB/CcRR!.c", "city:NW[cloth] road:S road:E field:SR field:SL field:ER field:EL"),
        ("TB/CcRR.w", "city:NW[wine] road:S road:E field:SR field:ER.SL field:EL"),
        ("TB/CcRC.c", "city:NW[cloth] city:S road:E field:EL field:ER"),
        ("TB/CcRC.g", "city:NW[grain] city:S road:E field:EL field:ER"),
        ("TB/CcR.c", "city:NW[cloth] road:E field:EL field:ER.SL.SR"),
        ("TB/CcR!.w", "city:NW[wine] road:E field:EL field:ER field:SL.SR"),
        ("TB/CccR.w", "city:_S[wine] road:S field:SR field:SL"),
        ("TB/CcCc.w", "city:NW[wine] city:SE field:I"),
        ("TB/CFc.w", "city:WE[wine] field:NL.NR field:SL.SR"),
        ("TB/CR", "city:N road:E field:EL field:ER.SL.SR.WL.WR"),
        ("TB/CRc.g", "city:WE[grain] road:S field:NL.NR field:SR field:SL"),
        ("TB/CRc.w", "city:WE[wine] road:S field:NL.NR field:SR field:SL"),
        ("TB/CRcR.w", "city:WE[wine] road:N road:S field:NL field:NR field:SL field:SR"),
        ("TB/LRRR", "monastery road:E road:S road:W field:NL.NR.EL.WR field:ER.SL field:SR.WL"),
        ("TB/RCc.g", "city:NW[grain] road:S field:SR field:EL.ER.SL"),
        ("TB/RCc!.g", "city:NW[grain] road:S field:SR field:SL field:EL.ER"),
        ("TB/RRC", "city:N road:W road:S field:WR field:SR.WL field:EL.ER.SL"),
        ("TB/RRrr", "road:NS road:WE field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
        ("RI/s", "river:E field:NL.NR.EL.ER.SL.SR.WL.WR"),
        ("RI.1/I.e", "river:W field:NL.NR.EL.ER.SL.SR.WL.WR"),
        ("RI.1/CICI", "river:WE city:N city:S field:EL.WR field:ER.WL"),
        ("RI.1/CIRI", "river:WE city:N road:S field:EL field:WR field:ER.SL field:SR.WL"),
        ("RI.1/LIRI", "river:WE monastery road:S field:NL.NR.EL.WR field:ER.SL field:SR.WL"),
        ("RI.1/RIrI", "river:NS road:WE field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
        ("RI.1/IFI", "river:WE field:NL.NR.EL.WR field:ER.SL.SR.WL"),
        ("RI.1/CcII", "river:SE city:NW field:EL.SR field:ER.SL"),
        ("RI.1/RrII", "river:SW road:NE field:NL.ER.SL.WR field:NR.EL field:SR.WL"),
        ("RI.1/II", "river:SW field:NL.NR.EL.ER.SL.WR field:SR.WL"),
        ("RI.1/IIG", "river:SW field:NL.NR.EL.ER.SL.WR field:SR.WL garden"),
        ("BA/CG", "city:N field:EL.ER.SL.SR.WL.WR garden"),
        ("BA/CFCG", "city:N city:S field:EL.ER.WL.WR garden"),
        ("BA/CCG", "city:N city:W field:EL.ER.SL.SR garden"),
        ("BA/Cc+G", "city+:NW field:EL.ER.SL.SR garden"),
        ("BA/CcG", "city:NW field:EL.ER.SL.SR garden"),
        ("BA/CccG", "city:_S field:SL.SR garden"),
        ("BA/RFrG", "road:WE field:NL.NR.EL.WR field:ER.SL.SR.WL garden"),
        ("BA/RrG", "road:SW field:NL.NR.EL.ER.SL.WR field:SR.WL garden"),
        ("LA/Rrrr", "road:NWSE field:NL.WR field:NR.EL field:ER.SL field:SR.WL"),
    ];

    fn describe(kind: TileKind) -> Vec<String> {
        let info = kind.info();
        let mut out: Vec<String> = info
            .def
            .features
            .iter()
            .enumerate()
            .map(|(i, f)| match f.kind {
                FeatureKind::Monastery => "monastery".to_string(),
                FeatureKind::Garden => "garden".to_string(),
                FeatureKind::Road if f.mark => format!("road:{}(inn)", side_name(f.sides)),
                FeatureKind::Road => format!("road:{}", side_name(f.sides)),
                FeatureKind::City if f.mark => format!("city:{}(cathedral)", side_name(f.sides)),
                FeatureKind::City if f.pennants > 1 => format!("city++:{}", side_name(f.sides)),
                FeatureKind::City if f.pennants > 0 => format!("city+:{}", side_name(f.sides)),
                FeatureKind::City if f.good.is_some() => {
                    format!("city:{}[{}]", side_name(f.sides), f.good.expect("a good").name())
                }
                FeatureKind::City => format!("city:{}", side_name(f.sides)),
                FeatureKind::Field if f.halves == 0 && i as u8 == info.inner_field2 => "field:II".to_string(),
                FeatureKind::Field if f.halves == 0 => "field:I".to_string(),
                FeatureKind::Field => format!("field:{}", halves_name(f.halves)),
            })
            .collect();
        if info.river != 0 {
            out.push(format!("river:{}", side_name(info.river)));
        }
        out.sort();
        out
    }

    #[test]
    fn every_tile_lies_as_jcloisterzone_describes_it() {
        assert_eq!(JCZ_FEATURES.len(), TILES.len());
        for (jcz, features) in JCZ_FEATURES {
            let ours = TILES.iter().find(|(j, _)| j == jcz).unwrap().1;
            let kind = TileKind::parse(ours).unwrap();
            let mut want: Vec<String> = features.split(' ').map(String::from).collect();
            want.sort();
            assert_eq!(describe(kind), want, "{jcz} = {kind}");
            assert_eq!(to_jcz(kind), *jcz);
        }
    }

    #[test]
    fn the_table_covers_the_catalogue_once() {
        for k in &catalogue().kinds {
            assert_eq!(TILES.iter().filter(|(_, o)| *o == k.def.id).count(), 1, "{}", k.def.id);
        }
    }

    #[test]
    fn garden_tiles_need_the_second_base_set() {
        let plain = Sets::default();
        assert!(to_ours("BA/CcG", plain).unwrap_err().contains("basic:2"));
        assert_eq!(to_ours("BA/CcG", Sets { gardens: true, ..plain }).unwrap().id(), "N");
        assert!(to_ours("FR/RRR", plain).unwrap_err().contains("The Ferries"));
        assert!(to_ours("AM/A", plain).unwrap_err().contains("AM"));
    }

    #[test]
    fn inns_tiles_need_their_set_and_its_gardens_are_refused() {
        let plain = Sets::default();
        let inns = Sets { inns: true, ..plain };
        assert!(to_ours("IC/RRR.i", plain).unwrap_err().contains("inns-and-cathedrals:1"));
        assert_eq!(to_ours("IC/RRR.i", inns).unwrap().id(), "I14");
        assert_eq!(to_ours("IC/CCCC", inns).unwrap().id(), "I3");
        for garden in INNS_GARDEN_TILES {
            let err = to_ours(garden, inns).unwrap_err();
            assert!(err.contains("garden tile of the set inns-and-cathedrals:2"), "{err}");
        }
        assert!(to_ours("IC/XYZ", inns).unwrap_err().starts_with("there is no tile IC/XYZ"));
    }
}

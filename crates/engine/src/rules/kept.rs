//! What the expansions in play keep in the state, each its own part: data
//! below the state, which holds it without knowing what it is.

use crate::expansion::Expansion;
use crate::setup::Rules;

/// What each expansion in play keeps in the state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Extensions {
    pub ferries: super::ferries::kept::Ferries,
    pub abbey: super::abbey::kept::AbbeyMayor,
    pub traders: super::traders::kept::Traders,
}

impl Extensions {
    pub(crate) fn new(rules: &Rules) -> Extensions {
        let mut ext = Extensions::default();
        if rules.has(Expansion::Abbey) {
            ext.abbey = super::abbey::kept::AbbeyMayor::new(rules);
        }
        ext
    }

    pub(crate) fn clone_from(&mut self, source: &Extensions) {
        self.ferries.clone_from(&source.ferries);
        self.abbey.clone_from(&source.abbey);
        self.traders = source.traders;
    }
}

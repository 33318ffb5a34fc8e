//! The turn plan: the steps of a turn, in order, as the rules in play make
//! them (the rules fill it once a game, `rules::TurnPlan::of`); the turn
//! walks it.

use crate::action::Step;

/// The steps of a turn as the rules in play make them, computed once per
/// game: any expansion's steps before the draw (a decision instead of or
/// before drawing), the base game's draw, place and deploy, then the
/// expansions' steps after them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct TurnPlan {
    pub(crate) steps: [Step; TurnPlan::MAX],
    pub(crate) len: u8,
    /// For each step (by its number), where the steps after it start.
    pub(crate) after: [u8; Step::COUNT],
    /// Whether deploying comes right after placing.
    pub(crate) deploy_follows_place: bool,
    /// Whether the rules give figures besides the normal follower.
    pub(crate) other_figures: bool,
    /// Whether some tiles in play are placed by more than their edges.
    pub(crate) placing_rules: bool,
    /// Whether a follower may join a feature others hold where the rules
    /// say (a road parted by the labyrinth).
    pub(crate) shared_features: bool,
    /// The steps before the draw (a bit per step).
    pub(crate) before_draw: u16,
}

impl TurnPlan {
    pub(crate) const MAX: usize = 8;

    /// A plan of these steps, for tests of plans no rules make yet.
    #[cfg(test)]
    pub(crate) fn from_steps(steps: &[Step]) -> TurnPlan {
        let mut plan = TurnPlan {
            steps: [Step::GameOver; TurnPlan::MAX],
            len: 0,
            after: [0; Step::COUNT],
            deploy_follows_place: false,
            other_figures: false,
            placing_rules: false,
            shared_features: false,
            before_draw: 0,
        };
        for &s in steps {
            plan.push(s);
        }
        plan
    }

    pub(crate) fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self.after[step as usize] = self.len;
        self.deploy_follows_place = self.after(Step::Place).first() == Some(&Step::Deploy);
    }

    pub(crate) fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Whether deploying comes right after placing, as the base game's
    /// steps do in every plan of the rules in play.
    #[inline]
    pub(crate) fn deploy_follows_place(&self) -> bool {
        self.deploy_follows_place
    }

    /// Whether the rules give figures besides the normal follower (the
    /// deploy step then offers them too).
    #[inline]
    pub(crate) fn other_figures(&self) -> bool {
        self.other_figures
    }

    /// Whether some tiles in play are placed by more than their edges (The
    /// River's), so that placing a tile asks the rules.
    #[inline]
    pub(crate) fn placing_rules(&self) -> bool {
        self.placing_rules
    }

    /// Whether a follower may join a feature others hold where the rules
    /// say, so that an occupied feature asks them.
    #[inline]
    pub(crate) fn shared_features(&self) -> bool {
        self.shared_features
    }

    /// Whether `step` comes before the draw in this plan.
    #[inline]
    pub(crate) fn before_draw(&self, step: Step) -> bool {
        self.before_draw & (1 << step as u16) != 0
    }

    /// The steps that follow `step` in the turn.
    #[inline]
    pub(crate) fn after(&self, step: Step) -> &[Step] {
        &self.steps[self.indices_after(step)]
    }

    /// Where the steps that follow `step` are in [`steps`](Self::steps):
    /// for walking them while the state that holds the plan changes,
    /// without copying the plan.
    #[inline]
    pub(crate) fn indices_after(&self, step: Step) -> std::ops::Range<usize> {
        self.after[step as usize] as usize..self.len as usize
    }
}

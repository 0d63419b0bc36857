//! The ways to an object's page: `d` (and Enter) on a row of a list, `o` on a pool's detail
//! to what the pool refers to.

use super::DescribeView;
use crate::app::component::{Ask, Ctx};
use crate::app::{Detail, Overlay, Tab, View};
use crate::domain::Kind;

/// `d`: the selected row's pool described, or the object a pool refers to that it is.
pub fn of_row(view: View, selected: usize, ctx: &mut Ctx) {
    let (Some(row), Some(kind)) = (ctx.shown.row(selected), view.described()) else {
        return;
    };
    let page = DescribeView::new(kind, &row.id.namespace, &row.id.name);
    ctx.ask(Ask::Open(Overlay::Describe(Box::new(page))));
}

/// `o`: on the Scaling tab the pool's ScalingPolicy described, elsewhere the AIWorkloads list
/// filtered to the pool's name.
pub fn related(detail: &Detail, ctx: &mut Ctx) {
    if detail.tab != Tab::Scaling {
        if let Some(view) = View::of_kind(Kind::AIWorkload) {
            ctx.ask(Ask::View(view, detail.name.clone()));
        }
        return;
    }
    let pool = ctx
        .hub
        .inventory
        .get(Kind::Pool, &detail.namespace, &detail.name);
    match pool
        .and_then(|p| p.pool())
        .and_then(crate::app::rows::refs::policy_of)
    {
        Some((namespace, name)) => {
            let namespace = namespace.unwrap_or(&detail.namespace);
            let page = DescribeView::new(Kind::ScalingPolicy, namespace, name);
            ctx.ask(Ask::Open(Overlay::Describe(Box::new(page))));
        }
        None => ctx.ask(Ask::Say(Some(
            "this pool names no ScalingPolicy (spec.clusterVariant's scalingPolicyRef)".to_owned(),
        ))),
    }
}

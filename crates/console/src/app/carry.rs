//! The top level carrying out what a component asked for ([`Ask`]), in order, once the
//! component is back in its place; and the [`Ctx`] it lends a component meanwhile.

use super::ask::{Ask, Awaiting, Ctx, Start};
use super::{App, Effect, Input, Overlay};

impl App {
    /// What a component may read of the console, and an empty queue.
    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            behind: self.scopes_behind(),
            page: self.page(),
            size: self.size,
            hub: &self.fleet,
            focus: self.fleet.focus(),
            connecting: self.connecting.as_deref(),
            now: self.now,
            shown: &self.shown,
            namespaces: &self.namespaces,
            offline: self.offline.as_deref(),
            output: self.output.as_deref(),
            wizard_only: self.wizard_only,
            editing: self.editing.as_ref(),
            search: &self.search,
            ids: &mut self.ids,
            asks: Vec::new(),
        }
    }

    /// Opens the wizard as `start` says (the chooser's choice, a resumed draft, a draft from
    /// a file).
    pub fn start_wizard(&mut self, start: Start) {
        let asks = super::drafts::start(self, start);
        self.carry_out(asks);
    }

    /// `pooldeck new --resume` of an edit, once its pool's namespace is listed.
    pub(super) fn open_pending(&mut self) {
        if let Some(asks) = super::drafts::open_pending(self) {
            self.resuming = None;
            self.carry_out(asks);
        }
    }

    /// Looks whether the pool a recreate waits on is gone, and creates it again if it is.
    pub(super) fn recreate_when_gone(&mut self) {
        if self.recreating.is_none() {
            return;
        }
        let mut under_way = self.recreating.take();
        let asks = self
            .lend_deferred(|ctx| super::wizard::recreate::when_gone(&mut under_way, ctx))
            .1;
        self.recreating = under_way;
        self.carry_out(asks);
    }

    /// Lends `act` a [`Ctx`] on the console, then carries out what it asked for.
    pub(super) fn lend<T>(&mut self, act: impl FnOnce(&mut Ctx) -> T) -> T {
        let (out, asks) = self.lend_deferred(act);
        self.carry_out(asks);
        out
    }

    /// Lends `act` a [`Ctx`] and returns what it asked for, to be carried out once the
    /// component acting is back in its place.
    pub(super) fn lend_deferred<T>(&mut self, act: impl FnOnce(&mut Ctx) -> T) -> (T, Vec<Ask>) {
        let mut ctx = self.ctx();
        let out = act(&mut ctx);
        (out, ctx.asks)
    }

    /// Carries out what a component asked for, in order.
    pub(super) fn carry_out(&mut self, asks: Vec<Ask>) {
        for ask in asks {
            self.carry_out_one(ask);
        }
    }

    /// One ask: the screens', the hubs' and the session's here; the wizard's, the drafts' and
    /// the edit's in [`App::carry_out_work`].
    fn carry_out_one(&mut self, ask: Ask) {
        match ask {
            Ask::Say(text) => self.message = text,
            Ask::Effect(effect) => self.outbox.push(effect),
            Ask::Send(request, awaiting) => {
                self.pending.insert(request.id, awaiting);
                self.outbox.push(Effect::Perform(request));
            }
            Ask::Review(permission) => {
                if !self.fleet.access.contains_key(&permission) {
                    self.fleet
                        .access
                        .insert(permission.clone(), super::confirm::Access::Asking);
                    self.send(permission.review(), Awaiting::Access(permission));
                }
            }
            Ask::Open(overlay) => self.overlays.push(overlay),
            Ask::Detail(detail) => self.detail = Some(detail),
            Ask::Input(input) => self.input = input,
            Ask::Typed(input) => self.after_typing(&input),
            Ask::Complete => self.complete(),
            Ask::Run(line) => {
                let asks = super::keys::run_command(self, &line);
                self.carry_out(asks);
            }
            Ask::Quit => self.quit = true,
            Ask::WatchAsked(namespaces) => {
                self.namespaces_asked = true;
                self.watch(namespaces);
            }
            Ask::ClearMarks => self.list.marked.clear(),
            Ask::Dropped => self.drop_answer(),
            Ask::Leave(say) => {
                let cancelled = self.leave();
                self.message = Some(super::requests::with_cancelled(say, &cancelled));
            }
            Ask::Home => {
                self.detail = None;
                self.input = Input::None;
                self.list = super::ListState::default();
            }
            Ask::CloseDetail => self.detail = None,
            Ask::Story(story) => self.story = Some(story),
            Ask::Watch(namespaces) => self.watch(namespaces),
            Ask::NarrowHub(name) => self.narrow_to(&name),
            Ask::View(view, filter) => {
                self.detail = None;
                self.list.switch_to(view, filter);
                self.message = None;
            }
            Ask::Chapter(chapter) => {
                if let Some(tour) = &mut self.tour {
                    let asks = super::tour::moves::open(tour, chapter);
                    self.carry_out(asks);
                }
            }
            Ask::Connect(contexts) => self.connect(contexts),
            ask @ (Ask::Wizard { .. }
            | Ask::Start(_)
            | Ask::OpenWizard(..)
            | Ask::RawEdit { .. }
            | Ask::EndEdit
            | Ask::Forget(_)
            | Ask::Kept { .. }
            | Ask::WatchAlso(_)
            | Ask::Recreating(_)
            | Ask::CloseWizardOnTop) => self.carry_out_work(ask),
        }
    }

    /// An ask of the wizard, the drafts or an edit in the user's editor.
    fn carry_out_work(&mut self, ask: Ask) {
        match ask {
            Ask::Wizard { edit } => {
                let ask = super::wizard::open(self, edit);
                self.carry_out_one(ask);
            }
            Ask::Start(start) => self.start_wizard(start),
            Ask::OpenWizard(wizard, typing) => {
                let mut wizard = *wizard;
                let asks = self
                    .lend_deferred(|ctx| super::wizard::opened(&mut wizard, typing.as_ref(), ctx))
                    .1;
                self.overlays.push(Overlay::Wizard(Box::new(wizard)));
                self.carry_out(asks);
            }
            Ask::RawEdit { namespace, name } => {
                let (editing, asks) =
                    self.lend_deferred(|ctx| super::edit::start(ctx, &namespace, &name));
                if editing.is_some() {
                    self.editing = editing;
                }
                self.carry_out(asks);
            }
            Ask::EndEdit => self.editing = None,
            Ask::Forget(file) => {
                let effect = super::drafts::forget(&mut self.drafts, &file);
                self.outbox.push(effect);
            }
            Ask::Kept { saved, replaces } => {
                super::drafts::kept(&mut self.drafts, saved, replaces.as_deref(), self.now);
            }
            Ask::WatchAlso(namespace) => self.watch_also(&namespace),
            Ask::Recreating(id) => {
                let hub = self.hub();
                if let Some(recreating) =
                    super::wizard::recreate::confirmed(&self.overlays, hub, id)
                {
                    self.recreating = Some(recreating);
                }
            }
            Ask::CloseWizardOnTop => {
                if let Some(Overlay::Wizard(_)) = self.overlays.last() {
                    self.overlays.pop();
                }
            }
            // Carried out by `carry_out_one`, which sends only the others here.
            Ask::Say(_)
            | Ask::Effect(_)
            | Ask::Send(..)
            | Ask::Review(_)
            | Ask::Open(_)
            | Ask::Detail(_)
            | Ask::Input(_)
            | Ask::Typed(_)
            | Ask::Complete
            | Ask::Run(_)
            | Ask::Quit
            | Ask::WatchAsked(_)
            | Ask::ClearMarks
            | Ask::Dropped
            | Ask::Leave(_)
            | Ask::Home
            | Ask::CloseDetail
            | Ask::Story(_)
            | Ask::Watch(_)
            | Ask::NarrowHub(_)
            | Ask::View(..)
            | Ask::Chapter(_)
            | Ask::Connect(_) => {}
        }
    }
}

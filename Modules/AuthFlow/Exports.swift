/// AuthFlow drives the sign-in engine of AuthFlowCore over Transport and keeps its sessions: a client that
/// imports AuthFlow has the engine's values (configuration, outcomes, sessions, page kinds) too.
@_exported public import AuthFlowCore

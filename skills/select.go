package skills

// offered decides whether the model may be offered skill s, by the rules
// of PraisonAI's SkillManager.get_available_skills and the fallback
// behaviour table of its Skill Capability Gates documentation, plus the OS
// (rule 2) and toolsets, which PraisonAI does not have. result returns the
// skill's validation (cached by the caller); it is only asked for when it
// matters, as PraisonAI validates only in strict mode and for fallback
// skills.
//
//  1. disable-model-invocation: never offered.
//  2. A skill whose OS list excludes this host: never offered, at any level
//     (it cannot work here).
//  3. Strict: an UNAVAILABLE skill is not offered.
//  4. A fallback skill (any fallback_for_*), at every level including
//     disabled: not offered while its own required tools, servers or
//     toolsets are missing (HasCriticalMissing; missing environment
//     variables or binaries alone leave it offered, DEGRADED, outside
//     strict), nor while any of the tools, servers or toolsets it stands in
//     for is available. It is offered only when all of them are absent.
//  5. Anything else is offered whatever its state: outside strict mode a
//     missing requirement is a warning, not a reason to hide.
func offered(s *Skill, level Level, avail availability, result func() *Result) bool {
	if s.DisableModelInvocation {
		return false
	}
	req := &s.Requirements
	fallback := req.IsFallback()
	if level == LevelStrict || fallback || len(req.OS) > 0 {
		r := result()
		if r.State == StateUnavailable || (fallback && r.HasCriticalMissing) {
			return false
		}
	}
	if !fallback {
		return true
	}
	for _, f := range fallbackLists {
		for _, name := range *f.field(req) {
			if f.from.has(avail, nil, name) { // availability alone answers
				return false
			}
		}
	}
	return true
}

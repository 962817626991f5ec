// Package skills finds SKILL.md skills, reads what they need to run, and
// decides which of them a language model may be offered right now.
//
// The pieces, in the order data flows through them:
//
//   - Discover walks skill directories (discover.go) and the parser reads one
//     SKILL.md (parse.go): its frontmatter (frontmatter.go) is YAML, read with
//     go.yaml.in/yaml/v3 into a yaml.Node so that line numbers survive and
//     duplicate keys do not fail; when the YAML is invalid, as it often is in
//     files written for other clients, a key: value line parser (lenient.go)
//     recovers the skill instead of dropping it.
//   - Requirements (requirements.go) merges what a skill needs from every
//     dialect in use: PraisonAI's top-level requires_* and fallback_for_*
//     keys and allowed-tools, OpenClaw's metadata.openclaw block and its
//     legacy names (openclaw.go), and Hermes' metadata.hermes block and
//     its top-level platforms and required_environment_variables
//     (hermes.go). The keys feeding each list are one table, listKeys.
//   - The validator (validate.go) checks Requirements against what is
//     available now (tools, servers, toolsets, and a Host for environment variables, binaries and the
//     OS) under an enforcement Level (level.go), giving a Result in one of the
//     States. The kinds of requirement (tools, servers, toolsets,
//     environment variables, binaries, any of some binaries) are one
//     table, kinds (kinds.go): how each is checked, its message, whether
//     it is critical, and its lists in the Result.
//   - A Manager (manager.go) holds a Catalog, caches Results, invalidates only
//     what a change in available tools or servers can affect, re-reads changed
//     files (refresh.go), and produces the Diagnostics, the skills by
//     state, the skills' parse warnings (Manager.Warnings) and the
//     <available_skills> prompt (select.go, prompt.go). What gatectl and
//     its HTTP API print of them (lists, doctor reports, counts) is theirs
//     (internal/skillsview), not this package's.
//
// The package knows nothing of WebAssembly or of the rest of gate: the
// runtime hands it the available tools and servers as plain sets and answers
// its few questions through the Host interface.
//
// # Decisions this package makes
//
// The package conforms to PraisonAI's skill capability gates (its Python
// SkillManager and CapabilityValidator: keys, states, levels, messages and
// JSON), except where stated. Where PraisonAI and the other ecosystems are
// silent or disagree, this package decides as follows; each is repeated
// where it is implemented.
//
//   - Only the first 64 KiB of a SKILL.md are read:
//     that bounds the work of parsing a hostile or broken file, and the
//     frontmatter must close within them.
//   - A folder holding a SKILL.md is a skill; discovery does not look inside
//     it for further skills (its subfolders are the skill's resources, and a
//     SKILL.md there is a template or an example).
//   - A SKILL.md is opened through internal/safefile, where the walk found
//     it with links resolved, following no link: one that is not a regular
//     file (a FIFO, a device, a directory), or becomes one or a link
//     between the walk and the read, is reported and its folder not
//     searched further; no open blocks and no read goes past
//     64 KiB and one byte. Skill.ReadFile reads it the same way later.
//   - Discovery stays inside its paths: a symbolic link leading out of the
//     path it was found under is reported and not followed unless
//     DiscoverOptions.FollowOutsideLinks is set, and a discovery enters at
//     most 10,000 directories and loads at most 10,000 files by default. A Refresh repeats the walk (once a second in gatectl serve),
//     so what one walk costs, every second costs.
//   - The prompt is well-formed XML 1.0 in valid UTF-8 whatever the files
//     and folder names hold: invalid UTF-8, characters XML forbids, C1
//     controls and bidirectional formatting characters become U+FFFD, so
//     that one skill can neither break the block for the model's client
//     nor reorder what the model reads.
//   - A skill whose frontmatter restricts it to other operating systems
//     (OpenClaw os, Hermes platforms) is UNAVAILABLE at every level and never
//     offered: no enforcement level can make it work on this host.
//   - A Hermes toolset is a group of tools, as in Hermes: a manifest tool
//     names its toolset (toolset = "web"; ManagerOptions.Toolsets), and a
//     toolset is present while at least one of its tools is available, as
//     Hermes derives a session's toolsets from its tools. A tool that names
//     none is in the toolset of its own name, a fallback that matches
//     Hermes wherever a tool and a toolset share a name ("terminal",
//     "memory"). A server is in no toolset: Hermes files an MCP server's
//     tools under "mcp-NAME", never under the server's own name.
//   - In a frontmatter read with the line parser, a list-valued key whose
//     value starts a list or mapping YAML cannot parse
//     ("requires_tools: [terminal") gives no names and a warning at its
//     line that names the key; OpenClaw's and Hermes' fallbacks would read
//     the text, and require a tool named "[terminal" that never exists.
//   - OpenClaw list strings are split on commas and on whitespace (OpenClaw
//     itself splits only on commas): a binary or variable name cannot hold a
//     space, so this only differs where OpenClaw could never have matched.
//   - OpenClaw and Hermes requirements follow this package's enforcement
//     levels like PraisonAI's do: outside strict mode a missing binary,
//     variable or toolset is a warning (DEGRADED) and the skill is still
//     offered, where OpenClaw and Hermes would hide it. Strict mode is
//     their behaviour.
//   - Hermes' required_environment_variables feed the environment
//     variables like requires_env: a missing one is a warning (DEGRADED)
//     outside strict mode, where Hermes would ask the user for it with the
//     entry's prompt and help; gate asks no one and keeps only the names.
//     An entry with no usable name (a mapping without a text "name", a
//     list) is reported with its line and skipped, where Hermes drops it
//     silently.
//   - Missing toolsets count as critical, like missing tools and servers
//     (Result.HasCriticalMissing); missing binaries do not, like environment
//     variables, so a fallback skill missing only those is still offered
//     outside strict mode.
package skills

package main

import "sync"

// cli is gatectl's commands; init builds them, since the help and
// completion commands read cli.
var cli *cmd

func init() {
	cli = commands().link()
}

// usage is the top-level usage made from cli, written when asked for:
// wrapping it is work and allocations that a command that never prints
// it should not spend at every start.
var usage = sync.OnceValue(func() string { return topUsage(cli) })

// commands is the table of gatectl's commands (the fields are cmd's, in
// run.go). The order here is the order of the usage and of completion.
func commands() *cmd {
	helpCmd := &cmd{
		name:       "help",
		aliases:    []string{"-h", "-help", "--help"},
		summary:    "the usage, or a command's help",
		usage:      []usageLine{{"[COMMAND]", "also gatectl COMMAND -h"}},
		run:        help,
		helpGolden: "help.txt",
	}
	root := &cmd{
		name: "gatectl",
		run:  noCommand,
		subs: []*cmd{
			{
				name:       "init",
				summary:    "write a gate.toml for what it finds on this machine",
				usage:      []usageLine{{"[-m gate.toml | --stdout] [--force]", ""}},
				flags:      flagsOf[initFlags](),
				run:        initCmd,
				helpGolden: "help_init.txt",
			},
			{
				name:       "check",
				summary:    "which tools and servers can run right now, and why not",
				usage:      []usageLine{{"[-m gate.toml] [--json] [--wait DURATION] [NAME...]", ""}},
				flags:      flagsOf[checkFlags](),
				names:      namesCheck,
				run:        check,
				helpGolden: "help_check.txt",
			},
			{
				name:       "schema",
				summary:    "the tool schema a model would be offered",
				usage:      []usageLine{{"[-m gate.toml] [--format openai|anthropic|mcp]", ""}},
				flags:      flagsOf[schemaFlags](),
				values:     map[string][]string{"format": schemaFormats()},
				run:        schemaCmd,
				helpGolden: "help_schema.txt",
			},
			{
				name:       "serve",
				summary:    "keep answers fresh and serve them over HTTP (docs/HTTP.md)",
				usage:      []usageLine{{"[-m gate.toml] [--addr 127.0.0.1:7311]", ""}},
				flags:      flagsOf[serveFlags](),
				run:        serve,
				daemon:     true,
				helpGolden: "help_serve.txt",
			},
			{
				name:       "mcp",
				summary:    "an MCP server over stdio that offers only the tools that can run now (docs/MCP.md)",
				usage:      []usageLine{{"[-m gate.toml]", ""}},
				flags:      flagsOf[mcpFlags](),
				run:        mcpCmd,
				daemon:     true,
				helpGolden: "help_mcp.txt",
				subs: []*cmd{{
					name:       "lock",
					summary:    "lock the MCP servers' tool definitions, for pin in the manifest",
					usage:      []usageLine{{"[-m gate.toml] [--check] [SERVER...]", ""}},
					flags:      flagsOf[lockFlags](),
					names:      namesServers,
					run:        mcpLock,
					helpGolden: "help_mcp_lock.txt",
				}, {
					name:       "check",
					summary:    "start or reach the MCP servers, list their tools, say which are ready",
					usage:      []usageLine{{"[-m gate.toml] [--json] [SERVER...]", ""}},
					flags:      flagsOf[mcpCheckFlags](),
					names:      namesServers,
					run:        mcpCheck,
					helpGolden: "help_mcp_check.txt",
				}},
			},
			{
				name:       "skills",
				summary:    "skills, their state, and whether the model is offered each",
				usage:      []usageLine{{"[-m gate.toml] [--path DIR]... [--json]", ""}},
				flags:      flagsOf[skillsFlags](),
				run:        skillsCmd,
				helpGolden: "help_skills.txt",
				subs: []*cmd{{
					name:       "prompt",
					summary:    "the <available_skills> block for the next model call",
					usage:      []usageLine{{"[-m gate.toml] [--path DIR]...", ""}},
					flags:      flagsOf[skillsPromptFlags](),
					run:        skillsPrompt,
					helpGolden: "help_skills_prompt.txt",
				}},
			},
			{
				name:       "doctor",
				summary:    "why skills are degraded or unavailable",
				run:        doctor,
				helpGolden: "help_doctor.txt",
				subs: []*cmd{{
					name:       "skills",
					summary:    "why skills are degraded or unavailable",
					usage:      []usageLine{{"[-m gate.toml] [--path DIR]... [--deep] [--json] [--requirements]", ""}},
					flags:      flagsOf[doctorFlags](),
					run:        doctorSkills,
					helpGolden: "help_doctor.txt",
				}},
			},
			{
				name:       "probe",
				summary:    "run a probe, or inspect a probe module",
				run:        runProbe,
				helpGolden: "help_probe.txt",
				subs: []*cmd{
					{
						name:    "run",
						summary: "run one probe and print its answer",
						usage: []usageLine{
							{"TARGET [flags]", ""},
							{"--tool NAME [-m gate.toml]", "run a manifest tool's probe with its grants, config and budget"},
						},
						flags:      flagsOf[probeRunFlags](),
						files:      true,
						run:        probeRun,
						helpGolden: "help_probe_run.txt",
					},
					{
						name:       "inspect",
						summary:    "show a module's imports, exports and ABI verdict",
						usage:      []usageLine{{"FILE.wasm", ""}},
						flags:      flagsOf[probeInspectFlags](),
						files:      true,
						run:        probeInspect,
						helpGolden: "help_probe_inspect.txt",
					},
				},
			},
			{
				name:       "completion",
				summary:    "the completion script for bash, zsh or fish",
				usage:      []usageLine{{"bash|zsh|fish", ""}},
				args:       shellNames(),
				run:        completionCmd,
				helpGolden: "help_completion.txt",
			},
			{
				name:       "version",
				aliases:    []string{"--version", "-version"},
				summary:    "gatectl's version",
				usage:      []usageLine{{"", "also gatectl --version"}},
				run:        versionCmd,
				helpGolden: "",
			},
			helpCmd,
		},
	}
	helpCmd.args = subNames(root.subs)
	return root
}

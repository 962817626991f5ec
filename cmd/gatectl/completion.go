package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

const completionUsage = `Usage: gatectl completion bash|zsh|fish

Prints a script that completes gatectl's commands, subcommands and flags
in the shell named; after a flag that takes a value, and where a command
takes a file, it completes file names. Load it into the shell you are in:

  bash:  source <(gatectl completion bash)
  zsh:   source <(gatectl completion zsh)        (after compinit)
  fish:  gatectl completion fish | source

or install it for every new shell:

  bash:  gatectl completion bash \
           > ~/.local/share/bash-completion/completions/gatectl
  zsh:   gatectl completion zsh > DIR/_gatectl   (DIR one of $fpath)
  fish:  gatectl completion fish > ~/.config/fish/completions/gatectl.fish

Exit codes: 0 printed, 2 bad input.
`

// completionShells are the shells completion writes a script for.
var completionShells = []struct {
	name  string
	write func(w io.Writer, root *cmd) error
}{
	{"bash", writeBash},
	{"zsh", writeZsh},
	{"fish", writeFish},
}

// shellNames is the names of completionShells.
func shellNames() []string {
	var names []string
	for _, s := range completionShells {
		names = append(names, s.name)
	}
	return names
}

// completionCmd is "gatectl completion SHELL": the script, made from cli.
func completionCmd(args []string, stdout, stderr io.Writer) int {
	if slices.ContainsFunc(args, isHelp) {
		fmt.Fprint(stdout, completionUsage)
		return exitOK
	}
	if len(args) == 1 {
		for _, s := range completionShells {
			if s.name == args[0] {
				_ = s.write(stdout, cli) // as every command, it ignores a failed write to stdout
				return exitOK
			}
		}
	}
	got := "nothing"
	if len(args) > 0 {
		got = fmt.Sprintf("%q", strings.Join(args, " "))
	}
	fmt.Fprintf(stderr, "gatectl completion: want one of %s, got %s\n\n%s", strings.Join(shellNames(), ", "), got, completionUsage)
	return exitUsage
}

// compNode is a command as a completion script sees it.
type compNode struct {
	key   string // the shell-safe name of its path: gatectl_probe_run
	subs  []*cmd
	flags []compFlag
	args  []string
	files bool
}

// compFlag is a flag as a completion script offers it.
type compFlag struct {
	name  string // without dashes
	value bool   // it takes a value: "-m gate.toml", not "--json"
	usage string
}

// spelling is the flag as gatectl's docs write it: -m, --json.
func (f compFlag) spelling() string {
	if len(f.name) == 1 {
		return "-" + f.name
	}
	return "--" + f.name
}

// spellings are every way the flag package accepts the flag as one
// word followed by its value: -m and --m.
func (f compFlag) spellings() []string { return []string{"-" + f.name, "--" + f.name} }

// compNodes is every command under root, root first, as completion sees
// them. A command's flags are read from the flag set its entry defines,
// so a new flag is completed without a change here; root's are its
// commands' aliases that are written as flags (--version, --help).
func compNodes(root *cmd) []compNode {
	var nodes []compNode
	root.walk(func(c *cmd) {
		n := compNode{
			key:   strings.Join(append([]string{root.name}, c.path()...), "_"),
			subs:  c.subs,
			args:  c.args,
			files: c.files,
		}
		if fs := c.flagSet(); fs != nil {
			fs.VisitAll(func(f *flag.Flag) {
				_, usage := flag.UnquoteUsage(f)
				b, isBool := f.Value.(interface{ IsBoolFlag() bool })
				n.flags = append(n.flags, compFlag{name: f.Name, value: !isBool || !b.IsBoolFlag(), usage: usage})
			})
		}
		if c == root {
			for _, s := range c.subs {
				for _, a := range s.aliases {
					if strings.HasPrefix(a, "--") {
						n.flags = append(n.flags, compFlag{name: a[2:], usage: s.summary})
					}
				}
			}
		}
		nodes = append(nodes, n)
	})
	return nodes
}

// subNames is the names of cmds.
func subNames(cmds []*cmd) []string {
	var names []string
	for _, c := range cmds {
		names = append(names, c.name)
	}
	return names
}

// shellQuote quotes s for bash and zsh: in single quotes, each single
// quote in s ending the quoted text, escaped, and starting it again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// fishQuote quotes s for fish: in single quotes, with \ and ' escaped.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// writeBash writes the bash script. _gatectl_node sets, for a command,
// its subcommands, flags, the spellings of its flags that take a value,
// its positional words and whether it takes files; _gatectl follows the
// words before the cursor from gatectl down to the command they select,
// as run dispatches them (a subcommand is only ever the word right after
// its command), and completes the word under the cursor: a file after a
// flag that takes a value, else a flag, a subcommand or an argument.
func writeBash(w io.Writer, root *cmd) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`# bash completion for gatectl, written by "gatectl completion bash".
#
#   source <(gatectl completion bash)

_gatectl_node() {
	case $1 in
`)
	for _, n := range compNodes(root) {
		var flags, valued []string
		for _, f := range n.flags {
			flags = append(flags, f.spelling())
			if f.value {
				valued = append(valued, f.spellings()...)
			}
		}
		files := ""
		if n.files {
			files = "1"
		}
		fmt.Fprintf(bw, "\t%s)\n", n.key)
		fmt.Fprintf(bw, "\t\tsubs=%s\n", shellQuote(strings.Join(subNames(n.subs), " ")))
		fmt.Fprintf(bw, "\t\tflags=%s\n", shellQuote(strings.Join(flags, " ")))
		fmt.Fprintf(bw, "\t\tvalued=%s\n", shellQuote(strings.Join(valued, " ")))
		fmt.Fprintf(bw, "\t\targs=%s\n", shellQuote(strings.Join(n.args, " ")))
		fmt.Fprintf(bw, "\t\tfiles=%s\n", shellQuote(files))
		bw.WriteString("\t\t;;\n")
	}
	bw.WriteString(`	esac
}

# _gatectl_has reports whether the word $2 is one of the list $1.
_gatectl_has() {
	[[ -n $2 && " $1 " == *" $2 "* ]]
}

_gatectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} node=gatectl i
	local subs flags valued args files
	_gatectl_node "$node"
	for ((i = 1; i < COMP_CWORD; i++)); do
		_gatectl_has "$subs" "${COMP_WORDS[i]}" || break
		node=${node}_${COMP_WORDS[i]}
		_gatectl_node "$node"
	done
	if ((i < COMP_CWORD)); then
		subs='' # a subcommand is only ever the word right after its command
	fi
	COMPREPLY=()
	if ((COMP_CWORD > 1)) && _gatectl_has "$valued" "${COMP_WORDS[COMP_CWORD-1]}"; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	elif [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
	elif [[ -n $subs$args ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$subs $args" -- "$cur")
	elif [[ -n $files ]]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}

complete -F _gatectl gatectl
`)
	return bw.Flush()
}

// writeZsh writes the zsh script: the walk of the bash script, in zsh,
// with each command's and flag's summary shown beside it.
func writeZsh(w io.Writer, root *cmd) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`#compdef gatectl
compdef _gatectl gatectl

# zsh completion for gatectl, written by "gatectl completion zsh".
#
#   source <(gatectl completion zsh)    # after compinit

_gatectl_node() {
	case $1 in
`)
	for _, n := range compNodes(root) {
		var subs, descs, flags, valued, args []string
		for _, s := range n.subs {
			subs = append(subs, shellQuote(s.name))
			descs = append(descs, shellQuote(s.name+":"+s.summary))
		}
		for _, f := range n.flags {
			flags = append(flags, shellQuote(f.spelling()+":"+f.usage))
			if f.value {
				for _, s := range f.spellings() {
					valued = append(valued, shellQuote(s))
				}
			}
		}
		for _, a := range n.args {
			args = append(args, shellQuote(a))
		}
		files := ""
		if n.files {
			files = "1"
		}
		fmt.Fprintf(bw, "\t(%s)\n", n.key)
		fmt.Fprintf(bw, "\t\tsubs=(%s)\n", strings.Join(subs, " "))
		fmt.Fprintf(bw, "\t\tdescs=(%s)\n", strings.Join(descs, "\n\t\t\t"))
		fmt.Fprintf(bw, "\t\tflags=(%s)\n", strings.Join(flags, "\n\t\t\t"))
		fmt.Fprintf(bw, "\t\tvalued=(%s)\n", strings.Join(valued, " "))
		fmt.Fprintf(bw, "\t\targs=(%s)\n", strings.Join(args, " "))
		fmt.Fprintf(bw, "\t\tfiles=%s\n", shellQuote(files))
		bw.WriteString("\t\t;;\n")
	}
	bw.WriteString(`	esac
}

_gatectl() {
	local node=gatectl w files
	local -a subs descs flags valued args
	local -i i
	_gatectl_node $node
	for ((i = 2; i < CURRENT; i++)); do
		w=${words[i]}
		[[ -n $w ]] && ((${subs[(Ie)$w]})) || break
		node=${node}_$w
		_gatectl_node $node
	done
	if ((i < CURRENT)); then
		# a subcommand is only ever the word right after its command
		subs=()
		descs=()
	fi
	w=${words[CURRENT-1]}
	if ((CURRENT > 2)) && [[ -n $w ]] && ((${valued[(Ie)$w]})); then
		_files
	elif [[ ${words[CURRENT]} == -* ]]; then
		_describe -t options option flags
	elif ((${#descs} + ${#args})); then
		((${#descs})) && _describe -t commands command descs
		((${#args})) && compadd -a args
	elif [[ -n $files ]]; then
		_files
	fi
}

if [ "$funcstack[1]" = "_gatectl" ]; then
	_gatectl "$@"
fi
`)
	return bw.Flush()
}

// writeFish writes the fish script: __gatectl_node walks the words
// before the cursor as the bash script does, and each completion is
// offered where it names that command.
func writeFish(w io.Writer, root *cmd) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`# fish completion for gatectl, written by "gatectl completion fish".
#
#   gatectl completion fish | source

# __gatectl_node prints the command the words before the cursor select,
# and then "new" if no word follows it (a subcommand is only ever the word
# right after its command).
function __gatectl_node
    set -l node gatectl
    set -l new 1
    set -l words (commandline -opc)
    set -e words[1]
    for w in $words
        switch "$node $w"
`)
	nodes := compNodes(root)
	for _, n := range nodes {
		for _, s := range n.subs {
			fmt.Fprintf(bw, "            case %s\n                set node %s_%s\n", fishQuote(n.key+" "+s.name), n.key, s.name)
		}
	}
	bw.WriteString(`            case '*'
                set new 0
                break
        end
    end
    echo $node
    if test $new = 1
        echo new
    end
end

# __gatectl_is reports whether the words before the cursor select $argv[1].
function __gatectl_is
    set -l at (__gatectl_node)
    test "$at[1]" = $argv[1]
end

# __gatectl_new reports whether they select $argv[1], and nothing follows.
function __gatectl_new
    set -l at (__gatectl_node)
    test "$at[1]" = $argv[1]; and test "$at[2]" = new
end

complete -c gatectl -f
`)
	for _, n := range nodes {
		cond := fishQuote("__gatectl_is " + n.key)
		for _, s := range n.subs {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -a %s -d %s\n", fishQuote("__gatectl_new "+n.key), fishQuote(s.name), fishQuote(s.summary))
		}
		for _, f := range n.flags {
			opt := "-l " + f.name
			if len(f.name) == 1 {
				opt = "-s " + f.name
			}
			if f.value {
				opt += " -r -F"
			}
			fmt.Fprintf(bw, "complete -c gatectl -n %s %s -d %s\n", cond, opt, fishQuote(f.usage))
		}
		if len(n.args) > 0 {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -a %s\n", cond, fishQuote(strings.Join(n.args, " ")))
		}
		if n.files {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -F\n", cond)
		}
	}
	return bw.Flush()
}

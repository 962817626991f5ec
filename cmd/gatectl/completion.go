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
takes a file, it completes file names, or the words the flag takes
(schema --format); check's NAMEs complete to the manifest's tools and
servers, which it asks gatectl for. Load it into the shell you are in:

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
	names nameSet // its arguments are the manifest's names: gatectl __names
}

// compFlag is a flag as a completion script offers it.
type compFlag struct {
	name   string   // without dashes
	value  bool     // it takes a value: "-m gate.toml", not "--json"
	values []string // the words the value may be; none: a file
	usage  string
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
			names: c.names,
		}
		if fs := c.flagSet(); fs != nil {
			fs.VisitAll(func(f *flag.Flag) {
				_, usage := flag.UnquoteUsage(f)
				b, isBool := f.Value.(interface{ IsBoolFlag() bool })
				n.flags = append(n.flags, compFlag{name: f.Name, value: !isBool || !b.IsBoolFlag(), values: c.values[f.Name], usage: usage})
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
// its positional words, whether it takes files and whether it takes the
// manifest's names; _gatectl_values sets the words a flag's value may be.
// _gatectl follows the words before the cursor from gatectl down to the
// command they select, as run dispatches them (a subcommand is only ever
// the word right after its command), and completes the word under the
// cursor: a flag's value (its words, else a file), a flag, a subcommand
// or an argument.
func writeBash(w io.Writer, root *cmd) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(`# bash completion for gatectl, written by "gatectl completion bash".
#
#   source <(gatectl completion bash)

_gatectl_node() {
	case $1 in
`)
	nodes := compNodes(root)
	for _, n := range nodes {
		var flags, valued []string
		for _, f := range n.flags {
			flags = append(flags, f.spelling())
			if f.value {
				valued = append(valued, f.spellings()...)
			}
		}
		fmt.Fprintf(bw, "\t%s)\n", n.key)
		fmt.Fprintf(bw, "\t\tsubs=%s\n", shellQuote(strings.Join(subNames(n.subs), " ")))
		fmt.Fprintf(bw, "\t\tflags=%s\n", shellQuote(strings.Join(flags, " ")))
		fmt.Fprintf(bw, "\t\tvalued=%s\n", shellQuote(strings.Join(valued, " ")))
		fmt.Fprintf(bw, "\t\targs=%s\n", shellQuote(strings.Join(n.args, " ")))
		fmt.Fprintf(bw, "\t\tfiles=%s\n", shellQuote(shellFlag(n.files)))
		fmt.Fprintf(bw, "\t\tnames=%s\n", shellQuote(string(n.names)))
		bw.WriteString("\t\t;;\n")
	}
	bw.WriteString(`	esac
}

# _gatectl_values sets values to the words the value of the flag $2 of
# the command $1 may be; none when it is a file.
_gatectl_values() {
	case $1:$2 in
`)
	for _, n := range nodes {
		for _, f := range n.flags {
			if len(f.values) == 0 {
				continue
			}
			var keys []string
			for _, sp := range f.spellings() {
				keys = append(keys, shellQuote(n.key+":"+sp))
			}
			fmt.Fprintf(bw, "\t%s)\n\t\tvalues=%s\n\t\t;;\n", strings.Join(keys, " | "), shellQuote(strings.Join(f.values, " ")))
		}
	}
	bw.WriteString(`	*)
		values=''
		;;
	esac
}

# _gatectl_has reports whether the word $2 is one of the list $1.
_gatectl_has() {
	[[ -n $2 && " $1 " == *" $2 "* ]]
}

# _gatectl_names adds to COMPREPLY the names of the set $2 (check's, or
# the MCP servers) that start with $1, of the manifest the words before
# the cursor name with -m (else the one gatectl reads by default). gatectl
# reads the file and runs no probe; it is never given standard input,
# which is the terminal here.
_gatectl_names() {
	local m='' n i
	for ((i = 1; i < COMP_CWORD; i++)); do
		case ${COMP_WORDS[i]} in
		-m | --m | -manifest | --manifest)
			m=${COMP_WORDS[i+1]}
			if [[ $m == = ]]; then # -m=FILE, split at = by COMP_WORDBREAKS
				m=${COMP_WORDS[i+2]}
			fi
			;;
		-m=* | --m=* | -manifest=* | --manifest=*)
			m=${COMP_WORDS[i]#*=}
			;;
		esac
	done
	[[ $m == - ]] && return
	[[ $m == "~/"* ]] && m=$HOME/${m:2}
	local -a ask=(__names "$2")
	[[ -n $m ]] && ask+=(-m "$m")
	while IFS= read -r n; do
		[[ $n == "$1"* ]] && COMPREPLY+=("$n")
	done < <(command gatectl "${ask[@]}" 2>/dev/null </dev/null)
}

_gatectl() {
	local cur=${COMP_WORDS[COMP_CWORD]} node=gatectl i
	local subs flags valued args files names values
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
		_gatectl_values "$node" "${COMP_WORDS[COMP_CWORD-1]}"
		if [[ -n $values ]]; then
			mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
		else
			compopt -o filenames 2>/dev/null
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		fi
	elif [[ $cur == -* ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$flags" -- "$cur")
	elif [[ -n $subs$args ]]; then
		mapfile -t COMPREPLY < <(compgen -W "$subs $args" -- "$cur")
	elif [[ -n $names ]]; then
		_gatectl_names "$cur" "$names"
	elif [[ -n $files ]]; then
		compopt -o filenames 2>/dev/null
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
	fi
}

complete -F _gatectl gatectl
`)
	return bw.Flush()
}

// shellFlag is b as the scripts keep a flag: "1" or "".
func shellFlag(b bool) string {
	if b {
		return "1"
	}
	return ""
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
	nodes := compNodes(root)
	for _, n := range nodes {
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
		fmt.Fprintf(bw, "\t(%s)\n", n.key)
		fmt.Fprintf(bw, "\t\tsubs=(%s)\n", strings.Join(subs, " "))
		fmt.Fprintf(bw, "\t\tdescs=(%s)\n", strings.Join(descs, "\n\t\t\t"))
		fmt.Fprintf(bw, "\t\tflags=(%s)\n", strings.Join(flags, "\n\t\t\t"))
		fmt.Fprintf(bw, "\t\tvalued=(%s)\n", strings.Join(valued, " "))
		fmt.Fprintf(bw, "\t\targs=(%s)\n", strings.Join(args, " "))
		fmt.Fprintf(bw, "\t\tfiles=%s\n", shellQuote(shellFlag(n.files)))
		fmt.Fprintf(bw, "\t\tnames=%s\n", shellQuote(string(n.names)))
		bw.WriteString("\t\t;;\n")
	}
	bw.WriteString(`	esac
}

# _gatectl_values sets values to the words the value of the flag $2 of
# the command $1 may be; none when it is a file.
_gatectl_values() {
	case $1:$2 in
`)
	for _, n := range nodes {
		for _, f := range n.flags {
			if len(f.values) == 0 {
				continue
			}
			var keys, values []string
			for _, sp := range f.spellings() {
				keys = append(keys, shellQuote(n.key+":"+sp))
			}
			for _, v := range f.values {
				values = append(values, shellQuote(v))
			}
			fmt.Fprintf(bw, "\t(%s)\n\t\tvalues=(%s)\n\t\t;;\n", strings.Join(keys, "|"), strings.Join(values, " "))
		}
	}
	bw.WriteString(`	(*)
		values=()
		;;
	esac
}

# _gatectl_names offers the names of the set $1 (check's, or the MCP
# servers), of the manifest the words before the cursor name with -m
# (else the one gatectl reads by default). gatectl reads the file and
# runs no probe; it is never given standard input, which is the terminal
# here.
_gatectl_names() {
	local m w
	local -i i
	local -a ask found
	for ((i = 2; i < CURRENT; i++)); do
		w=${words[i]}
		case $w in
		(-m|--m|-manifest|--manifest)
			m=${words[i+1]}
			;;
		(-m=*|--m=*|-manifest=*|--manifest=*)
			m=${w#*=}
			;;
		esac
	done
	[[ $m == - ]] && return
	[[ $m == '~/'* ]] && m=$HOME/${m#'~/'}
	ask=(__names $1)
	[[ -n $m ]] && ask+=(-m "$m")
	found=(${(f)"$(command gatectl "${ask[@]}" 2>/dev/null </dev/null)"})
	compadd -a found
}

_gatectl() {
	local node=gatectl w files names
	local -a subs descs flags valued args values
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
		_gatectl_values $node $w
		if ((${#values})); then
			compadd -a values
		else
			_files
		fi
	elif [[ ${words[CURRENT]} == -* ]]; then
		_describe -t options option flags
	elif ((${#descs} + ${#args})); then
		((${#descs})) && _describe -t commands command descs
		((${#args})) && compadd -a args
	elif [[ -n $names ]]; then
		_gatectl_names $names
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

# __gatectl_names prints the names of the set $argv[1] (check's, or the
# MCP servers), of the manifest the words before the cursor name with -m
# (else the one gatectl reads by default).
# gatectl reads the file and runs no probe; it is never given standard
# input, which is the terminal here.
function __gatectl_names
    set -l m
    set -l words (commandline -opc)
    for i in (seq 2 (count $words))
        switch $words[$i]
            case -m --m -manifest --manifest
                if test $i -lt (count $words)
                    set m $words[(math $i + 1)]
                end
            case '-m=*' '--m=*' '-manifest=*' '--manifest=*'
                set m (string split -m 1 = -- $words[$i])[2]
        end
    end
    if test "$m" = -
        return
    end
    set -l ask __names $argv[1]
    if test -n "$m"
        set ask $ask -m (string replace -r '^~/' "$HOME/" -- $m)
    end
    command gatectl $ask 2>/dev/null </dev/null
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
			switch {
			case len(f.values) > 0:
				opt += " -x -a " + fishQuote(strings.Join(f.values, " "))
			case f.value:
				opt += " -r -F"
			}
			fmt.Fprintf(bw, "complete -c gatectl -n %s %s -d %s\n", cond, opt, fishQuote(f.usage))
		}
		if len(n.args) > 0 {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -a %s\n", cond, fishQuote(strings.Join(n.args, " ")))
		}
		if n.names != "" {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -a %s\n", cond, fishQuote("(__gatectl_names "+string(n.names)+")"))
		}
		if n.files {
			fmt.Fprintf(bw, "complete -c gatectl -n %s -F\n", cond)
		}
	}
	return bw.Flush()
}

# bash completion for gatectl, written by "gatectl completion bash".
#
#   source <(gatectl completion bash)

_gatectl_node() {
	case $1 in
	gatectl)
		subs='init check schema serve mcp skills doctor probe completion version help'
		flags='--version --help'
		valued=''
		args=''
		files=''
		names=''
		;;
	gatectl_init)
		subs=''
		flags='--force -m --stdout'
		valued='-m --m'
		args=''
		files=''
		names=''
		;;
	gatectl_check)
		subs=''
		flags='--json -m -v --wait'
		valued='-m --m -wait --wait'
		args=''
		files=''
		names='check'
		;;
	gatectl_schema)
		subs=''
		flags='--format -m'
		valued='-format --format -m --m'
		args=''
		files=''
		names=''
		;;
	gatectl_serve)
		subs=''
		flags='--addr --allow-remote --list-changed-interval -m --mcp-stateless --startup-wait --token-file -v'
		valued='-addr --addr -list-changed-interval --list-changed-interval -m --m -startup-wait --startup-wait -token-file --token-file'
		args=''
		files=''
		names=''
		;;
	gatectl_mcp)
		subs='lock check'
		flags='--list-changed-interval -m --startup-wait -v'
		valued='-list-changed-interval --list-changed-interval -m --m -startup-wait --startup-wait'
		args=''
		files=''
		names=''
		;;
	gatectl_mcp_lock)
		subs=''
		flags='--check -m --manifest -v'
		valued='-m --m -manifest --manifest'
		args=''
		files=''
		names='servers'
		;;
	gatectl_mcp_check)
		subs=''
		flags='--json -m --startup-wait -v'
		valued='-m --m -startup-wait --startup-wait'
		args=''
		files=''
		names='servers'
		;;
	gatectl_skills)
		subs='prompt'
		flags='--json -m --path'
		valued='-m --m -path --path'
		args=''
		files=''
		names=''
		;;
	gatectl_skills_prompt)
		subs=''
		flags='-m --path'
		valued='-m --m -path --path'
		args=''
		files=''
		names=''
		;;
	gatectl_doctor)
		subs='skills'
		flags=''
		valued=''
		args=''
		files=''
		names=''
		;;
	gatectl_doctor_skills)
		subs=''
		flags='--deep --json -m --path --requirements'
		valued='-m --m -path --path'
		args=''
		files=''
		names=''
		;;
	gatectl_probe)
		subs='run inspect'
		flags=''
		valued=''
		args=''
		files=''
		names=''
		;;
	gatectl_probe_run)
		subs=''
		flags='--budget --cache-dir --config --dial --env --fresh --http --import --insecure --json -m --memory --name --proxy --python --secret --tls-ca --tool -v'
		valued='-budget --budget -cache-dir --cache-dir -config --config -dial --dial -env --env -http --http -import --import -insecure --insecure -m --m -memory --memory -name --name -python --python -secret --secret -tls-ca --tls-ca -tool --tool'
		args=''
		files='1'
		names=''
		;;
	gatectl_probe_inspect)
		subs=''
		flags='--json --memory'
		valued='-memory --memory'
		args=''
		files='1'
		names=''
		;;
	gatectl_completion)
		subs=''
		flags=''
		valued=''
		args='bash zsh fish'
		files=''
		names=''
		;;
	gatectl_version)
		subs=''
		flags=''
		valued=''
		args=''
		files=''
		names=''
		;;
	gatectl_help)
		subs=''
		flags=''
		valued=''
		args='init check schema serve mcp skills doctor probe completion version help'
		files=''
		names=''
		;;
	esac
}

# _gatectl_values sets values to the words the value of the flag $2 of
# the command $1 may be; none when it is a file.
_gatectl_values() {
	case $1:$2 in
	'gatectl_schema:-format' | 'gatectl_schema:--format')
		values='openai anthropic mcp'
		;;
	*)
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

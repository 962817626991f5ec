#compdef gatectl
compdef _gatectl gatectl

# zsh completion for gatectl, written by "gatectl completion zsh".
#
#   source <(gatectl completion zsh)    # after compinit

_gatectl_node() {
	case $1 in
	(gatectl)
		subs=('init' 'check' 'schema' 'serve' 'mcp' 'skills' 'doctor' 'probe' 'completion' 'version' 'help')
		descs=('init:write a gate.toml for what it finds on this machine'
			'check:which tools and servers can run right now, and why not'
			'schema:the tool schema a model would be offered'
			'serve:keep answers fresh and serve them over HTTP (docs/HTTP.md)'
			'mcp:an MCP server over stdio that offers only the tools that can run now (docs/MCP.md)'
			'skills:skills, their state, and whether the model is offered each'
			'doctor:why skills are degraded or unavailable'
			'probe:run a probe, or inspect a probe module'
			'completion:the completion script for bash, zsh or fish'
			'version:gatectl'\''s version'
			'help:the usage, or a command'\''s help')
		flags=('--version:gatectl'\''s version'
			'--help:the usage, or a command'\''s help')
		valued=()
		args=()
		files=''
		names=''
		;;
	(gatectl_init)
		subs=()
		descs=()
		flags=('--force:replace the manifest if it exists'
			'-m:the manifest to write (- for stdout)'
			'--stdout:write the manifest to stdout')
		valued=('-m' '--m')
		args=()
		files=''
		names=''
		;;
	(gatectl_check)
		subs=()
		descs=()
		flags=('--json:print the result as JSON (shape: docs/CLI.md)'
			'-m:the manifest'
			'-v:log each probe'\''s failures and grace decisions to stderr'
			'--wait:check again until every tool and server (or each NAME) is available, for at most DURATION; exit 1 if one is not by then')
		valued=('-m' '--m' '-wait' '--wait')
		args=()
		files=''
		names='check'
		;;
	(gatectl_schema)
		subs=()
		descs=()
		flags=('--format:openai, anthropic or mcp'
			'-m:the manifest')
		valued=('-format' '--format' '-m' '--m')
		args=()
		files=''
		names=''
		;;
	(gatectl_serve)
		subs=()
		descs=()
		flags=('--addr:where to listen'
			'--allow-remote:allow listening on an address other than loopback (needs a token)'
			'--list-changed-interval:notify MCP clients that the tools changed at most once per DURATION, for every change since the last notice (0: at each change)'
			'-m:the manifest'
			'--mcp-stateless:serve MCP 2026-07-28 on /mcp beside the older versions (a client that speaks both then speaks 2026-07-28, which has no roots, logging/setLevel, elicitation or sampling)'
			'--startup-wait:hold a client'\''s listing at most DURATION for servers still making their first connection, so that a client that lists once sees their tools (0: answer at once)'
			'--token-file:read the bearer token from FILE (else $GATE_TOKEN)'
			'-v:also log every probe run that fails and every grace decision')
		valued=('-addr' '--addr' '-list-changed-interval' '--list-changed-interval' '-m' '--m' '-startup-wait' '--startup-wait' '-token-file' '--token-file')
		args=()
		files=''
		names=''
		;;
	(gatectl_mcp)
		subs=('lock' 'check')
		descs=('lock:lock the MCP servers'\'' tool definitions, for pin in the manifest'
			'check:start or reach the MCP servers, list their tools, say which are ready')
		flags=('--list-changed-interval:notify MCP clients that the tools changed at most once per DURATION, for every change since the last notice (0: at each change)'
			'-m:the manifest'
			'--startup-wait:hold a client'\''s listing at most DURATION for servers still making their first connection, so that a client that lists once sees their tools (0: answer at once)'
			'-v:also log every probe run that fails and every grace decision')
		valued=('-list-changed-interval' '--list-changed-interval' '-m' '--m' '-startup-wait' '--startup-wait')
		args=()
		files=''
		names=''
		;;
	(gatectl_mcp_lock)
		subs=()
		descs=()
		flags=('--check:write nothing: print how the lock differs from what the servers offer, and exit 1 if it does'
			'-m:the manifest'
			'--manifest:the manifest (as -m)'
			'-v:log what the gateway logs about the servers (their stderr, their state) to stderr')
		valued=('-m' '--m' '-manifest' '--manifest')
		args=()
		files=''
		names='servers'
		;;
	(gatectl_mcp_check)
		subs=()
		descs=()
		flags=('--json:print the result as JSON (shape: docs/CLI.md)'
			'-m:the manifest'
			'--startup-wait:note a server ready only after DURATION, the wait of gatectl mcp'\''s and serve'\''s first listing'
			'-v:log what the gateway logs about the servers (their stderr, their state) to stderr')
		valued=('-m' '--m' '-startup-wait' '--startup-wait')
		args=()
		files=''
		names='servers'
		;;
	(gatectl_skills)
		subs=('prompt')
		descs=('prompt:the <available_skills> block for the next model call')
		flags=('--json:print JSON (shapes: docs/CLI.md)'
			'-m:the manifest'
			'--path:a skills DIR to look at instead of the manifest'\''s; repeatable')
		valued=('-m' '--m' '-path' '--path')
		args=()
		files=''
		names=''
		;;
	(gatectl_skills_prompt)
		subs=()
		descs=()
		flags=('-m:the manifest'
			'--path:a skills DIR to look at instead of the manifest'\''s; repeatable')
		valued=('-m' '--m' '-path' '--path')
		args=()
		files=''
		names=''
		;;
	(gatectl_doctor)
		subs=('skills')
		descs=('skills:why skills are degraded or unavailable')
		flags=()
		valued=()
		args=()
		files=''
		names=''
		;;
	(gatectl_doctor_skills)
		subs=()
		descs=()
		flags=('--deep:probe every tool and server again instead of reading cached answers'
			'--json:print JSON (shapes: docs/CLI.md)'
			'-m:the manifest'
			'--path:a skills DIR to look at instead of the manifest'\''s; repeatable'
			'--requirements:show each skill'\''s requirements and the files skipped or read leniently')
		valued=('-m' '--m' '-path' '--path')
		args=()
		files=''
		names=''
		;;
	(gatectl_probe)
		subs=('run' 'inspect')
		descs=('run:run one probe and print its answer'
			'inspect:show a module'\''s imports, exports and ABI verdict')
		flags=()
		valued=()
		args=()
		files=''
		names=''
		;;
	(gatectl_probe_run)
		subs=()
		descs=()
		flags=('--budget:the probe'\''s budget (at most 100ms)'
			'--cache-dir:where compiled probes are kept ("" for none; env GATE_CACHE_DIR)'
			'--config:set the probe config K=V; repeatable'
			'--dial:grant connecting to ADDR (host:port, unix:/path, or a pattern); repeatable'
			'--env:grant reading the environment variable NAME (or pattern, AWS_*); repeatable'
			'--fresh:run on a fresh instance, instantiated inside the budget (no warm-up)'
			'--http:grant requesting URLs under URL-PREFIX (https://host/path/, http://127.0.0.1:*/, unix:/path.sock:/_ping); repeatable'
			'--import:grant looking up SPEC (py:psycopg2, bin:*, lib:...); repeatable'
			'--insecure:grant TLS without verification to ADDR (host:port, or a pattern), also granted by --dial or --http; repeatable'
			'--json:print the result as JSON'
			'-m:the manifest of --tool (default $GATE_MANIFEST, else ./gate.toml)'
			'--memory:memory cap per probe instance'
			'--name:the probe'\''s name in reasons and errors (default: TARGET)'
			'--proxy:send the probe'\''s HTTP requests through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (default: none)'
			'--python:the Python whose import path answers py: specs'
			'--secret:grant sending the variable of NAME=DEST as ${secret:NAME}, to DEST only (127.0.0.1:6379, tls:host:port, unix:/path, https://host/path/), never readable by the probe; repeatable, NAME again adds a destination'
			'--tls-ca:verify the probe'\''s TLS peers against the PEM certificates in FILE, not the system roots'
			'--tool:run the probe of the manifest'\''s tool (or server) NAME, with its grants, config and budget'
			'-v:also print the probe'\''s output and logs')
		valued=('-budget' '--budget' '-cache-dir' '--cache-dir' '-config' '--config' '-dial' '--dial' '-env' '--env' '-http' '--http' '-import' '--import' '-insecure' '--insecure' '-m' '--m' '-memory' '--memory' '-name' '--name' '-python' '--python' '-secret' '--secret' '-tls-ca' '--tls-ca' '-tool' '--tool')
		args=()
		files='1'
		names=''
		;;
	(gatectl_probe_inspect)
		subs=()
		descs=()
		flags=('--json:print the inspection as JSON'
			'--memory:the memory cap to check the module'\''s minimum against')
		valued=('-memory' '--memory')
		args=()
		files='1'
		names=''
		;;
	(gatectl_completion)
		subs=()
		descs=()
		flags=()
		valued=()
		args=('bash' 'zsh' 'fish')
		files=''
		names=''
		;;
	(gatectl_version)
		subs=()
		descs=()
		flags=()
		valued=()
		args=()
		files=''
		names=''
		;;
	(gatectl_help)
		subs=()
		descs=()
		flags=()
		valued=()
		args=('init' 'check' 'schema' 'serve' 'mcp' 'skills' 'doctor' 'probe' 'completion' 'version' 'help')
		files=''
		names=''
		;;
	esac
}

# _gatectl_values sets values to the words the value of the flag $2 of
# the command $1 may be; none when it is a file.
_gatectl_values() {
	case $1:$2 in
	('gatectl_schema:-format'|'gatectl_schema:--format')
		values=('openai' 'anthropic' 'mcp')
		;;
	(*)
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

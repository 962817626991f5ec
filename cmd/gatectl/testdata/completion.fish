# fish completion for gatectl, written by "gatectl completion fish".
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
            case 'gatectl init'
                set node gatectl_init
            case 'gatectl check'
                set node gatectl_check
            case 'gatectl schema'
                set node gatectl_schema
            case 'gatectl serve'
                set node gatectl_serve
            case 'gatectl mcp'
                set node gatectl_mcp
            case 'gatectl skills'
                set node gatectl_skills
            case 'gatectl doctor'
                set node gatectl_doctor
            case 'gatectl probe'
                set node gatectl_probe
            case 'gatectl completion'
                set node gatectl_completion
            case 'gatectl version'
                set node gatectl_version
            case 'gatectl help'
                set node gatectl_help
            case 'gatectl_mcp lock'
                set node gatectl_mcp_lock
            case 'gatectl_mcp check'
                set node gatectl_mcp_check
            case 'gatectl_skills prompt'
                set node gatectl_skills_prompt
            case 'gatectl_doctor skills'
                set node gatectl_doctor_skills
            case 'gatectl_probe run'
                set node gatectl_probe_run
            case 'gatectl_probe inspect'
                set node gatectl_probe_inspect
            case '*'
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
complete -c gatectl -n '__gatectl_new gatectl' -a 'init' -d 'write a gate.toml for what it finds on this machine'
complete -c gatectl -n '__gatectl_new gatectl' -a 'check' -d 'which tools and servers can run right now, and why not'
complete -c gatectl -n '__gatectl_new gatectl' -a 'schema' -d 'the tool schema a model would be offered'
complete -c gatectl -n '__gatectl_new gatectl' -a 'serve' -d 'keep answers fresh and serve them over HTTP (docs/HTTP.md)'
complete -c gatectl -n '__gatectl_new gatectl' -a 'mcp' -d 'an MCP server over stdio that offers only the tools that can run now (docs/MCP.md)'
complete -c gatectl -n '__gatectl_new gatectl' -a 'skills' -d 'skills, their state, and whether the model is offered each'
complete -c gatectl -n '__gatectl_new gatectl' -a 'doctor' -d 'why skills are degraded or unavailable'
complete -c gatectl -n '__gatectl_new gatectl' -a 'probe' -d 'run a probe, or inspect a probe module'
complete -c gatectl -n '__gatectl_new gatectl' -a 'completion' -d 'the completion script for bash, zsh or fish'
complete -c gatectl -n '__gatectl_new gatectl' -a 'version' -d 'gatectl\'s version'
complete -c gatectl -n '__gatectl_new gatectl' -a 'help' -d 'the usage, or a command\'s help'
complete -c gatectl -n '__gatectl_is gatectl' -l version -d 'gatectl\'s version'
complete -c gatectl -n '__gatectl_is gatectl' -l help -d 'the usage, or a command\'s help'
complete -c gatectl -n '__gatectl_is gatectl_init' -l force -d 'replace the manifest if it exists'
complete -c gatectl -n '__gatectl_is gatectl_init' -s m -r -F -d 'the manifest to write (- for stdout)'
complete -c gatectl -n '__gatectl_is gatectl_init' -l stdout -d 'write the manifest to stdout'
complete -c gatectl -n '__gatectl_is gatectl_check' -l json -d 'print the result as JSON (shape: docs/CLI.md)'
complete -c gatectl -n '__gatectl_is gatectl_check' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_check' -s v -d 'log each probe\'s failures and grace decisions to stderr'
complete -c gatectl -n '__gatectl_is gatectl_check' -l wait -r -F -d 'check again until every tool and server (or each NAME) is available, for at most DURATION; exit 1 if one is not by then'
complete -c gatectl -n '__gatectl_is gatectl_check' -a '(__gatectl_names check)'
complete -c gatectl -n '__gatectl_is gatectl_schema' -l format -x -a 'openai anthropic mcp' -d 'openai, anthropic or mcp'
complete -c gatectl -n '__gatectl_is gatectl_schema' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l addr -r -F -d 'where to listen'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l allow-remote -d 'allow listening on an address other than loopback (needs a token)'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l list-changed-interval -r -F -d 'notify MCP clients that the tools changed at most once per DURATION, for every change since the last notice (0: at each change)'
complete -c gatectl -n '__gatectl_is gatectl_serve' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l mcp-stateless -d 'serve MCP 2026-07-28 on /mcp beside the older versions (a client that speaks both then speaks 2026-07-28, which has no roots, logging/setLevel, elicitation or sampling)'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l startup-wait -r -F -d 'hold a client\'s listing at most DURATION for servers still making their first connection, so that a client that lists once sees their tools (0: answer at once)'
complete -c gatectl -n '__gatectl_is gatectl_serve' -l token-file -r -F -d 'read the bearer token from FILE (else $GATE_TOKEN)'
complete -c gatectl -n '__gatectl_is gatectl_serve' -s v -d 'also log every probe run that fails and every grace decision'
complete -c gatectl -n '__gatectl_new gatectl_mcp' -a 'lock' -d 'lock the MCP servers\' tool definitions, for pin in the manifest'
complete -c gatectl -n '__gatectl_new gatectl_mcp' -a 'check' -d 'start or reach the MCP servers, list their tools, say which are ready'
complete -c gatectl -n '__gatectl_is gatectl_mcp' -l list-changed-interval -r -F -d 'notify MCP clients that the tools changed at most once per DURATION, for every change since the last notice (0: at each change)'
complete -c gatectl -n '__gatectl_is gatectl_mcp' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_mcp' -l startup-wait -r -F -d 'hold a client\'s listing at most DURATION for servers still making their first connection, so that a client that lists once sees their tools (0: answer at once)'
complete -c gatectl -n '__gatectl_is gatectl_mcp' -s v -d 'also log every probe run that fails and every grace decision'
complete -c gatectl -n '__gatectl_is gatectl_mcp_lock' -l check -d 'write nothing: print how the lock differs from what the servers offer, and exit 1 if it does'
complete -c gatectl -n '__gatectl_is gatectl_mcp_lock' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_mcp_lock' -l manifest -r -F -d 'the manifest (as -m)'
complete -c gatectl -n '__gatectl_is gatectl_mcp_lock' -s v -d 'log what the gateway logs about the servers (their stderr, their state) to stderr'
complete -c gatectl -n '__gatectl_is gatectl_mcp_lock' -a '(__gatectl_names servers)'
complete -c gatectl -n '__gatectl_is gatectl_mcp_check' -l json -d 'print the result as JSON (shape: docs/CLI.md)'
complete -c gatectl -n '__gatectl_is gatectl_mcp_check' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_mcp_check' -l startup-wait -r -F -d 'note a server ready only after DURATION, the wait of gatectl mcp\'s and serve\'s first listing'
complete -c gatectl -n '__gatectl_is gatectl_mcp_check' -s v -d 'log what the gateway logs about the servers (their stderr, their state) to stderr'
complete -c gatectl -n '__gatectl_is gatectl_mcp_check' -a '(__gatectl_names servers)'
complete -c gatectl -n '__gatectl_new gatectl_skills' -a 'prompt' -d 'the <available_skills> block for the next model call'
complete -c gatectl -n '__gatectl_is gatectl_skills' -l json -d 'print JSON (shapes: docs/CLI.md)'
complete -c gatectl -n '__gatectl_is gatectl_skills' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_skills' -l path -r -F -d 'a skills DIR to look at instead of the manifest\'s; repeatable'
complete -c gatectl -n '__gatectl_is gatectl_skills_prompt' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_skills_prompt' -l path -r -F -d 'a skills DIR to look at instead of the manifest\'s; repeatable'
complete -c gatectl -n '__gatectl_new gatectl_doctor' -a 'skills' -d 'why skills are degraded or unavailable'
complete -c gatectl -n '__gatectl_is gatectl_doctor_skills' -l deep -d 'probe every tool and server again instead of reading cached answers'
complete -c gatectl -n '__gatectl_is gatectl_doctor_skills' -l json -d 'print JSON (shapes: docs/CLI.md)'
complete -c gatectl -n '__gatectl_is gatectl_doctor_skills' -s m -r -F -d 'the manifest'
complete -c gatectl -n '__gatectl_is gatectl_doctor_skills' -l path -r -F -d 'a skills DIR to look at instead of the manifest\'s; repeatable'
complete -c gatectl -n '__gatectl_is gatectl_doctor_skills' -l requirements -d 'show each skill\'s requirements and the files skipped or read leniently'
complete -c gatectl -n '__gatectl_new gatectl_probe' -a 'run' -d 'run one probe and print its answer'
complete -c gatectl -n '__gatectl_new gatectl_probe' -a 'inspect' -d 'show a module\'s imports, exports and ABI verdict'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l budget -r -F -d 'the probe\'s budget (at most 100ms)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l cache-dir -r -F -d 'where compiled probes are kept ("" for none; env GATE_CACHE_DIR)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l config -r -F -d 'set the probe config K=V; repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l dial -r -F -d 'grant connecting to ADDR (host:port, unix:/path, or a pattern); repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l env -r -F -d 'grant reading the environment variable NAME (or pattern, AWS_*); repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l fresh -d 'run on a fresh instance, instantiated inside the budget (no warm-up)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l http -r -F -d 'grant requesting URLs under URL-PREFIX (https://host/path/, http://127.0.0.1:*/, unix:/path.sock:/_ping); repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l import -r -F -d 'grant looking up SPEC (py:psycopg2, bin:*, lib:...); repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l insecure -r -F -d 'grant TLS without verification to ADDR (host:port, or a pattern), also granted by --dial or --http; repeatable'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l json -d 'print the result as JSON'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -s m -r -F -d 'the manifest of --tool (default $GATE_MANIFEST, else ./gate.toml)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l memory -r -F -d 'memory cap per probe instance'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l name -r -F -d 'the probe\'s name in reasons and errors (default: TARGET)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l proxy -d 'send the probe\'s HTTP requests through the proxy HTTPS_PROXY, HTTP_PROXY and NO_PROXY name (default: none)'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l python -r -F -d 'the Python whose import path answers py: specs'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l secret -r -F -d 'grant sending the variable of NAME=DEST as ${secret:NAME}, to DEST only (127.0.0.1:6379, tls:host:port, unix:/path, https://host/path/), never readable by the probe; repeatable, NAME again adds a destination'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l tls-ca -r -F -d 'verify the probe\'s TLS peers against the PEM certificates in FILE, not the system roots'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -l tool -r -F -d 'run the probe of the manifest\'s tool (or server) NAME, with its grants, config and budget'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -s v -d 'also print the probe\'s output and logs'
complete -c gatectl -n '__gatectl_is gatectl_probe_run' -F
complete -c gatectl -n '__gatectl_is gatectl_probe_inspect' -l json -d 'print the inspection as JSON'
complete -c gatectl -n '__gatectl_is gatectl_probe_inspect' -l memory -r -F -d 'the memory cap to check the module\'s minimum against'
complete -c gatectl -n '__gatectl_is gatectl_probe_inspect' -F
complete -c gatectl -n '__gatectl_is gatectl_completion' -a 'bash zsh fish'
complete -c gatectl -n '__gatectl_is gatectl_help' -a 'init check schema serve mcp skills doctor probe completion version help'

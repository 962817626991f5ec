module github.com/gate-dev/gate

go 1.26

require (
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/stretchr/testify v1.12.1
	github.com/tetratelabs/wazero v1.12.0
	go.yaml.in/yaml/v3 v3.0.6
)

require golang.org/x/sys v0.44.0 // indirect

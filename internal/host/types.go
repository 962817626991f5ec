package host

import (
	"github.com/gate-dev/gate/hostfuncs"
	"github.com/gate-dev/gate/internal/grants"
)

// The types a host app configures (package hostfuncs) and the grants
// (package internal/grants), under the names the host functions use
// throughout.
type (
	Grants      = grants.Spec
	Resolvers   = hostfuncs.Resolvers
	Policy      = grants.Policy
	SecretSet   = grants.SecretSet
	Destination = grants.Destination
	DialAddr    = grants.DialAddr
	HTTPTarget  = grants.HTTPTarget
)

package gateway

// Props is props, for the tests of package gateway_test.
var Props = props

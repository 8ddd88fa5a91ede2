module github.com/fastbrowser/fastbrowser

go 1.26.8

require (
	github.com/google/jsonschema-go v0.4.3
	github.com/gorilla/websocket v1.5.3
	github.com/hashicorp/go-multierror v1.1.1
	github.com/mafredri/cdp v0.35.0
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	github.com/sethvargo/go-retry v0.5.0
	github.com/tidwall/gjson v1.20.2
	github.com/urfave/cli/v2 v2.27.7
	golang.org/x/net v0.63.0
	golang.org/x/sync v0.25.0
	golang.org/x/text v0.44.0
)

require (
	github.com/cpuguy83/go-md2man/v2 v2.0.7 // indirect
	github.com/hashicorp/errwrap v1.0.0 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/tidwall/match v1.1.1 // indirect
	github.com/tidwall/pretty v1.3.0 // indirect
	github.com/xrash/smetrics v0.0.0-20240521201337-686a1a2994c1 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/sys v0.50.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

// A copy of v6.0.3 whose package init is done on first use (transport/internal/third_party/jsonschema/FASTBROWSER.md).
replace github.com/santhosh-tekuri/jsonschema/v6 => ./transport/internal/third_party/jsonschema

package scenario

import (
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/strictjson"
)

// The egress choices are closed sets decoded strictly: leaving a field out gives its
// default, and anything else, "" included, is refused with the field's path.

// SubresourcesMode is egress.subresources: transport.SubresourcesFail or SubresourcesReport.
type SubresourcesMode string

func (m *SubresourcesMode) UnmarshalStrictJSON(raw []byte, path string) error {
	return strictjson.DecodeOneOf(raw, (*string)(m), path, transport.SubresourcesFail, transport.SubresourcesReport)
}

// BlockOrAllow is egress.serviceWorkers and egress.webrtc: "block" or "allow".
type BlockOrAllow string

func (m *BlockOrAllow) UnmarshalStrictJSON(raw []byte, path string) error {
	return strictjson.DecodeOneOf(raw, (*string)(m), path, "block", "allow")
}

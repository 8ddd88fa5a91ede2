package runtime

import (
	"github.com/fastbrowser/fastbrowser/transport"
	"github.com/fastbrowser/fastbrowser/transport/policy"
)

var (
	_ = prepares((*Runtime).prepareDownload)
	_ = commits((*Runtime).commitDownload)
)

// prepareDownload refuses a download before it clicks anything when the file would have
// nowhere to go.
func (r *Runtime) prepareDownload(req *transport.Download, _ policy.Policy) error {
	return r.needStore(req.OpName(), "a download")
}

// commitDownload writes a download operation's file to the store (kind "download", 0600 like
// every artifact) and answers with its metadata in place of the bytes. The bytes are kept as
// the server sent them, unscrubbed, so their SHA-256 is the file's: a download is never sent
// anywhere, and the result (filename, URL) is scrubbed like any other. A file that is
// missing, malformed or cannot be kept fails the operation.
func (r *Runtime) commitDownload(_ *transport.Download, res *transport.DownloadResult) (transport.Result, error) {
	out := *res
	if err := r.commitPayload(transport.OpDownload, transport.PartDownload, &out.Committed, nil, transport.Unknown); err != nil {
		return nil, err
	}
	return &out, nil
}

package scenario

import (
	"os"
	"strconv"

	"github.com/fastbrowser/fastbrowser/transport"
)

// resolveUploads makes an upload's relative paths relative to the directory of the file the
// operation is written in (the scenario's, or a fragment's), as a managed server's cwd and
// command are, and refuses at load a path that is not a regular file, naming the path it
// resolved to. The runtime still refuses, when the act runs, a file outside the run's
// working directory.
func resolveUploads(fr *fileRequest, dir, path string) error {
	a, ok := fr.op.(*transport.Act)
	if !ok || a.Action != transport.ActUpload {
		return nil
	}
	for j, f := range a.Files {
		p := resolveIn(dir, f)
		if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
			return fail(path+"["+strconv.Itoa(j)+"]", "no such regular file: "+quote(p)+" (relative paths resolve against the directory of the file that names them)")
		}
		a.Files[j] = p
	}
	return nil
}

// UploadFiles is the files a checked upload act (or nothing else) sends, resolved to
// absolute paths.
func (op *Operation) UploadFiles() []string {
	if op.req == nil {
		return nil
	}
	if a, ok := op.req.op.(*transport.Act); ok && a.Action == transport.ActUpload {
		return append([]string(nil), a.Files...)
	}
	return nil
}

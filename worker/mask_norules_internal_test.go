package worker

import (
	"bytes"
	"image/png"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/fastbrowser/fastbrowser/transport"
)

// maskPages are pages with a password field and no redaction rule: one in a closed shadow
// root (no page script can see it, only the DOM search), one in a modal dialog (painted
// above any mask).
var maskPages = map[string]string{
	"/closed": `<!doctype html><body style="margin:0;background:#fff"><div id="host" style="position:absolute;left:100px;top:100px"></div>
<script>document.getElementById("host").attachShadow({mode: "closed"}).innerHTML =
  '<input type="password" value="hunter2hunter2" style="display:block;width:200px;height:40px;border:0;padding:0;background:#fff;color:#00f;font:32px monospace">';</script>`,
	"/dialog": `<!doctype html><body><dialog id="d"><input type="password" value="hunter2"></dialog>
<script>document.getElementById("d").showModal();</script>`,
}

// TestMaskPasswordsWithoutRules: with no redaction rule a screenshot reads no accessibility
// tree, yet still masks a password field only the DOM search finds (in a closed shadow
// root: its pixels are the mask's black), and still refuses one it cannot cover (in a modal
// dialog: not proven, no screenshot).
func TestMaskPasswordsWithoutRules(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(maskPages[r.URL.Path]))
	}))
	defer site.Close()

	ctx, w, tb := workerOn(t, site.URL+"/closed")
	proof, shot, err := w.screenshot(ctx, tb, nil)
	if err != nil || !proof.Proven || proof.Matched == 0 || len(shot) == 0 {
		t.Fatalf("closed shadow root: proof %+v, %d bytes, %v", proof, len(shot), err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range [][2]int{{104, 104}, {200, 120}, {296, 136}} {
		if r, g, b, _ := img.At(p[0], p[1]).RGBA(); r|g|b != 0 {
			t.Errorf("pixel %v over the closed shadow root's password field is not the mask's black", p)
		}
	}

	if _, err := w.navigate(ctx, &transport.Navigate{URL: site.URL + "/dialog"}, w.base); err != nil {
		t.Fatal(err)
	}
	proof, shot, err = w.screenshot(ctx, tb, nil)
	if err != nil || proof.Proven || shot != nil || proof.Unmasked == 0 {
		t.Fatalf("modal dialog: proof %+v, %d bytes, %v; want not proven, no screenshot", proof, len(shot), err)
	}
}

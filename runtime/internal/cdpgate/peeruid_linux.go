package cdpgate

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
)

// sameUser reports whether the request's connection belongs to this process's user: the
// kernel lists every TCP socket with its owner's uid in /proc/net/tcp, and the client's
// end of a loopback connection is there, its local address our peer's. Loopback TCP has
// no SO_PEERCRED; this is the same fact read another way. In doubt (not found, unreadable),
// no.
func sameUser(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok {
		return false
	}
	remote, err := net.ResolveTCPAddr("tcp", r.RemoteAddr)
	if err != nil {
		return false
	}
	uid, ok := socketOwner("/proc/net/tcp", remote, local)
	return ok && uid == os.Geteuid()
}

// socketOwner finds, in a /proc/net/tcp table, the socket whose local address is from and
// remote address is to, and returns its uid.
func socketOwner(table string, from, to *net.TCPAddr) (int, bool) {
	f, err := os.Open(table)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid …
		fields := strings.Fields(sc.Text())
		if len(fields) < 8 || !sameAddr(fields[1], from) || !sameAddr(fields[2], to) {
			continue
		}
		uid, err := strconv.Atoi(fields[7])
		return uid, err == nil
	}
	return 0, false
}

// sameAddr compares a table's "0100007F:1F90" with a (v4) address: the kernel prints the
// address's four bytes as one native-endian word, and the port in hex.
func sameAddr(field string, a *net.TCPAddr) bool {
	host, port, ok := strings.Cut(field, ":")
	ip4 := a.IP.To4()
	if !ok || len(host) != 8 || ip4 == nil {
		return false
	}
	p, err := strconv.ParseUint(port, 16, 16)
	if err != nil || int(p) != a.Port {
		return false
	}
	raw, err := hex.DecodeString(host)
	if err != nil {
		return false
	}
	var b [4]byte
	binary.NativeEndian.PutUint32(b[:], binary.BigEndian.Uint32(raw))
	return net.IP(b[:]).Equal(ip4)
}

#include "pp_curl.h"

/// 1 when an address is one a hostile link must not make us reach: loopback, private (RFC 1918,
/// RFC 4193), shared (RFC 6598), link-local (169.254/16, including cloud metadata at 169.254.169.254,
/// and fe80::/10), multicast, unspecified, broadcast, and IPv4 written in IPv6 (mapped, NAT64) when
/// the IPv4 address is one of those.
static inline int pdfpipe_ipv4_is_private(const unsigned char *a) {
    if (a[0] == 0 || a[0] == 10 || a[0] == 127) return 1;
    if (a[0] == 100 && (a[1] & 0xC0) == 64) return 1;          // 100.64/10
    if (a[0] == 169 && a[1] == 254) return 1;                   // link-local, metadata
    if (a[0] == 172 && (a[1] & 0xF0) == 16) return 1;           // 172.16/12
    if (a[0] == 192 && a[1] == 168) return 1;
    if (a[0] == 192 && a[1] == 0 && a[2] == 0) return 1;        // IETF protocol assignments
    if (a[0] == 198 && (a[1] & 0xFE) == 18) return 1;           // benchmarking 198.18/15
    if (a[0] >= 224) return 1;                                  // multicast, reserved, broadcast
    return 0;
}

int pdfpipe_address_is_private(const struct sockaddr *sa) {
    if (sa->sa_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
        return pdfpipe_ipv4_is_private((const unsigned char *)&in->sin_addr.s_addr);
    }
    if (sa->sa_family == AF_INET6) {
        const unsigned char *a = ((const struct sockaddr_in6 *)sa)->sin6_addr.s6_addr;
        static const unsigned char zero[16] = {0};
        if (memcmp(a, zero, 12) == 0) return 1;   // ::/96: ::, ::1 and IPv4-compatible (::127.0.0.1, deprecated)
        if (a[0] == 0xFF) return 1;                                            // multicast
        if (a[0] == 0xFE && (a[1] & 0xC0) == 0x80) return 1;                   // fe80::/10
        if (a[0] == 0xFE && (a[1] & 0xC0) == 0xC0) return 1;                   // fec0::/10 (old site-local)
        if ((a[0] & 0xFE) == 0xFC) return 1;                                   // fc00::/7
        static const unsigned char mapped[12] = {0,0,0,0,0,0,0,0,0,0,0xFF,0xFF};
        if (memcmp(a, mapped, 12) == 0) return pdfpipe_ipv4_is_private(a + 12);
        static const unsigned char nat64[12] = {0,0x64,0xFF,0x9B,0,0,0,0,0,0,0,0};
        if (memcmp(a, nat64, 12) == 0) return pdfpipe_ipv4_is_private(a + 12);
        if (a[0] == 0x20 && a[1] == 0x02) return pdfpipe_ipv4_is_private(a + 2);   // 6to4 2002::/16 embeds an IPv4 address
        return 0;
    }
    return 1;   // anything else (unix sockets, …) is not for web links
}

/// The same test on a textual IPv4 or IPv6 address; -1 when the text is not an address.
int pdfpipe_text_address_is_private(const char *text) {
    struct sockaddr_in in4; struct sockaddr_in6 in6;
    memset(&in4, 0, sizeof in4); memset(&in6, 0, sizeof in6);
    if (inet_pton(AF_INET, text, &in4.sin_addr) == 1) { in4.sin_family = AF_INET; return pdfpipe_address_is_private((struct sockaddr *)&in4); }
    if (inet_pton(AF_INET6, text, &in6.sin6_addr) == 1) { in6.sin6_family = AF_INET6; return pdfpipe_address_is_private((struct sockaddr *)&in6); }
    return -1;
}

static curl_socket_t pdfpipe_open_socket(void *clientp, curlsocktype purpose, struct curl_sockaddr *address) {
    pdfpipe_transfer *t = (pdfpipe_transfer *)clientp;
    (void)purpose;
    if (!t->allow_private && pdfpipe_address_is_private(&address->addr)) {
        t->blocked = 1;
        if (address->family == AF_INET)
            inet_ntop(AF_INET, &((struct sockaddr_in *)&address->addr)->sin_addr, t->blocked_address, sizeof t->blocked_address);
        else if (address->family == AF_INET6)
            inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&address->addr)->sin6_addr, t->blocked_address, sizeof t->blocked_address);
        return CURL_SOCKET_BAD;
    }
    return socket(address->family, address->socktype, address->protocol);
}

static size_t pdfpipe_write_body(char *data, size_t size, size_t count, void *userdata) {
    pdfpipe_transfer *t = (pdfpipe_transfer *)userdata;
    size_t n = size * count;
    t->got_body = 1;
    if (t->body == NULL) {
        if (t->snippet_len < (long long)sizeof t->snippet - 1) {
            size_t room = sizeof t->snippet - 1 - (size_t)t->snippet_len;
            size_t k = n < room ? n : room;
            memcpy(t->snippet + t->snippet_len, data, k);
            t->snippet_len += (long long)k;
            t->snippet[t->snippet_len] = 0;
        }
        t->body_size += (long long)n;
        return t->body_size > t->discard_limit ? 0 : n;   // past the limit: stop (CURLE_WRITE_ERROR, expected)
    }
    if (t->body_size + (long long)n > t->body_limit) { t->body_truncated = 1; return 0; }
    if (fwrite(data, 1, n, t->body) != n) return 0;
    t->body_size += (long long)n;
    return n;
}

/// Copies a header's value (after "name:") into `out` when `line` is that header.
static inline void pdfpipe_take_header(const char *line, size_t n, const char *name, char *out, size_t cap) {
    size_t k = strlen(name);
    if (n <= k || strncasecmp(line, name, k) != 0) return;
    const char *v = line + k, *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t')) v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t')) end--;
    size_t len = (size_t)(end - v);
    if (len >= cap) len = cap - 1;
    memcpy(out, v, len);
    out[len] = 0;
}

/// Appends "name: value; " to `signals` when `line` is one of the headers bot protections send.
static inline void pdfpipe_take_signal(pdfpipe_transfer *t, const char *line, size_t n) {
    static const char *names[] = {"cf-mitigated:", "x-datadome:", "x-dd-b:", "x-amzn-waf-action:", "x-sucuri-id:", "x-iinfo:", "x-px-", "x-akamai-", NULL};
    for (int i = 0; names[i]; i++) {
        size_t k = strlen(names[i]);
        if (n <= k || strncasecmp(line, names[i], k) != 0) continue;
        size_t used = strlen(t->signals), len = n;
        while (len > 0 && (line[len - 1] == '\r' || line[len - 1] == '\n')) len--;
        if (used + len + 3 >= sizeof t->signals) return;
        memcpy(t->signals + used, line, len);
        memcpy(t->signals + used + len, "; ", 3);
        return;
    }
}

/// Statuses a bot protection answers with: their (small) body is read, to see whether it is a
/// challenge page.
static inline int pdfpipe_status_may_be_blocked(long status) { return status == 403 || status == 429 || status == 503; }

static size_t pdfpipe_header(char *line, size_t size, size_t count, void *userdata) {
    pdfpipe_transfer *t = (pdfpipe_transfer *)userdata;
    size_t n = size * count;
    if (n > 5 && memcmp(line, "HTTP/", 5) == 0) {
        const char *sp = memchr(line, ' ', n);
        t->header_status = sp ? strtol(sp + 1, NULL, 10) : 0;
        t->location[0] = t->retry_after[0] = t->content_type[0] = t->server[0] = t->signals[0] = 0;
        t->content_length = -1;
    } else if ((n == 2 && line[0] == '\r') || (n == 1 && line[0] == '\n')) {
        // A body of known size up to `discard_limit` is read and dropped, so the connection stays
        // open for the next request (a new TCP and TLS handshake costs more round trips than the
        // rest of a small page); a bigger one, or one of unknown size, is not waited for.
        if (t->stop_after_headers && t->header_status >= 200 && !pdfpipe_status_may_be_blocked(t->header_status) &&
            !(t->content_length >= 0 && t->content_length <= t->discard_limit)) {
            t->headers_done = 1;
            return 0;
        }
    } else {
        pdfpipe_take_header(line, n, "location:", t->location, sizeof t->location);
        pdfpipe_take_header(line, n, "retry-after:", t->retry_after, sizeof t->retry_after);
        pdfpipe_take_header(line, n, "content-type:", t->content_type, sizeof t->content_type);
        pdfpipe_take_header(line, n, "server:", t->server, sizeof t->server);
        pdfpipe_take_signal(t, line, n);
        if (n > 15 && strncasecmp(line, "content-length:", 15) == 0) t->content_length = strtoll(line + 15, NULL, 10);
    }
    return n;
}

const char *pdfpipe_transfer_location(const pdfpipe_transfer *t) { return t->location; }
const char *pdfpipe_transfer_content_type(const pdfpipe_transfer *t) { return t->content_type; }
const char *pdfpipe_transfer_retry_after(const pdfpipe_transfer *t) { return t->retry_after; }
const char *pdfpipe_transfer_server(const pdfpipe_transfer *t) { return t->server; }
const char *pdfpipe_transfer_signals(const pdfpipe_transfer *t) { return t->signals; }
const char *pdfpipe_transfer_snippet(const pdfpipe_transfer *t) { return t->snippet; }

/// Seconds to wait from a Retry-After value (seconds, or an HTTP date); -1 when it is neither.
long pdfpipe_retry_after_seconds(const char *value) {
    if (!value[0]) return -1;
    char *end = NULL;
    long s = strtol(value, &end, 10);
    if (end && *end == 0) return s < 0 ? 0 : s;
    time_t when = curl_getdate(value, NULL);
    if (when < 0) return -1;
    time_t now = time(NULL);
    return when > now ? (long)(when - now) : 0;
}

int pdfpipe_curl_global_init(void) { return (int)curl_global_init(CURL_GLOBAL_DEFAULT); }

/// Options that stay the same for every request made through one handle.
void pdfpipe_curl_setup(CURL *h, pdfpipe_transfer *t, const char *user_agent) {
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);   // every hop is ours: chain, loops, policy
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, pdfpipe_open_socket);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETDATA, t);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, pdfpipe_write_body);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, t);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, t->error);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, pdfpipe_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, t);
    curl_easy_setopt(h, CURLOPT_USERAGENT, user_agent);
    curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");   // whatever curl can decode
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
    /* The certificate authorities to trust, as curl and OpenSSL name them (a runner behind a
       TLS-inspecting proxy, a test's own authority): the system's bundle otherwise. */
    const char *ca = getenv("CURL_CA_BUNDLE");
    if (!ca || !*ca) ca = getenv("SSL_CERT_FILE");
    if (ca && *ca) curl_easy_setopt(h, CURLOPT_CAINFO, ca);
}

/// Sets up one request on `h` without performing it (`fresh`: on a new connection, not one kept
/// from an earlier request). Performed by curl_easy_perform or through a multi handle.
void pdfpipe_curl_prepare(
    CURL *h, pdfpipe_transfer *t, const char *url, int method_head, struct curl_slist *headers,
    long timeout_ms, long connect_timeout_ms, const char *proxy, int fresh)
{
    /* pdfpipe's proxy decision, given explicitly: "" is a direct connection (libcurl then reads no
       proxy variable), and no libcurl exemption list applies (pdfpipe applied no_proxy). A direct
       connection's sockets are checked against the address policy; a proxy's are not (it may be
       on loopback: the target's name was checked instead). */
    int disable_socket_check = proxy[0] != 0;
    curl_easy_setopt(h, CURLOPT_PROXY, proxy);
    curl_easy_setopt(h, CURLOPT_NOPROXY, "");
    t->blocked = 0; t->blocked_address[0] = 0; t->got_body = 0; t->body_truncated = 0; t->body_size = 0; t->error[0] = 0;
    t->headers_done = 0; t->header_status = 0; t->content_length = -1;
    t->location[0] = t->retry_after[0] = t->content_type[0] = t->server[0] = t->signals[0] = 0;
    t->snippet[0] = 0; t->snippet_len = 0;
    t->stop_after_headers = (!method_head && t->body == NULL);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_NOBODY, method_head ? 1L : 0L);
    if (!method_head) curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_FRESH_CONNECT, fresh ? 1L : 0L);
    curl_easy_setopt(h, CURLOPT_OPENSOCKETFUNCTION, disable_socket_check ? NULL : pdfpipe_open_socket);
}

/// One request. `method_head`: HEAD (no body) or GET. Headers: a curl_slist or NULL.
CURLcode pdfpipe_curl_request(
    CURL *h, pdfpipe_transfer *t, const char *url, int method_head, struct curl_slist *headers,
    long timeout_ms, long connect_timeout_ms, const char *proxy)
{
    pdfpipe_curl_prepare(h, t, url, method_head, headers, timeout_ms, connect_timeout_ms, proxy, 0);
    return curl_easy_perform(h);
}

CURLM *pdfpipe_multi_init(void) {
    if (pdfpipe_curl_global_init() != 0) return NULL;
    CURLM *m = curl_multi_init();
    if (m == NULL) return NULL;
    /* Connections kept open for reuse, over every host (libcurl's default is 4 per easy handle
       added, which with short transfers closes connections the next request would reuse). */
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, 256L);
    return m;
}

/// The next finished transfer of `m`: 1 with its handle and result, 0 when there is none.
int pdfpipe_multi_next_done(CURLM *m, CURL **easy, CURLcode *result) {
    int left = 0;
    CURLMsg *msg;
    while ((msg = curl_multi_info_read(m, &left)) != NULL) {
        if (msg->msg != CURLMSG_DONE) continue;
        *easy = msg->easy_handle;
        *result = msg->data.result;
        return 1;
    }
    return 0;
}

long pdfpipe_curl_status(CURL *h) { long v = 0; curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &v); return v; }

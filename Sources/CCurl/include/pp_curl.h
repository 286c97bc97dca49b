// libcurl through plain functions: curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call, and the socket and write callbacks are easier to keep in C next to the state they fill.
// The code is in curl_shim.c (a header's static inline functions are not rebuilt when edited).
#ifndef PDFPIPE_CCURL_H
#define PDFPIPE_CCURL_H

#include <curl/curl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <time.h>

/// What one transfer needs besides the handle: the address policy, the body sink, and what happened.
typedef struct pdfpipe_transfer {
    /// 0: refuse to connect to loopback, private, link-local, multicast and unspecified addresses.
    int allow_private;
    /// Set when a connection was refused by that policy; `blocked_address` says to what.
    int blocked;
    char blocked_address[INET6_ADDRSTRLEN];
    /// NULL: the body is not wanted: up to `discard_limit` bytes are read and dropped (so that a
    /// small answer leaves the connection reusable), and the transfer stops past that.
    FILE *body;
    long long discard_limit;
    long long body_limit;
    long long body_size;
    /// Set when body bytes arrived (and were dropped or written).
    int got_body;
    /// Set when the body went past body_limit.
    int body_truncated;
    /// Stop once the headers of a final (non-1xx) answer are in: the body is not wanted.
    int stop_after_headers;
    /// Set when the transfer was stopped that way.
    int headers_done;
    long header_status;
    /// Headers of the final answer, as received (empty when absent).
    char location[8192];
    char retry_after[128];
    char content_type[256];
    char server[128];
    /// Headers bot protections answer with (`cf-mitigated: challenge; x-datadome: …`), for telling a
    /// refused checker from a broken link.
    char signals[512];
    /// The first bytes of a discarded body (error pages: a challenge or CAPTCHA page says so).
    char snippet[8192];
    long long snippet_len;
    long long content_length;   /// -1 when not given
    char error[CURL_ERROR_SIZE];
} pdfpipe_transfer;

/// 1 when an address is one a hostile link must not make us reach: loopback, private, shared,
/// link-local (cloud metadata included), multicast, unspecified, broadcast, and IPv4 written in
/// IPv6 when the IPv4 address is one of those (curl_shim.c lists the ranges).
int pdfpipe_address_is_private(const struct sockaddr *sa);

/// The same test on a textual IPv4 or IPv6 address; -1 when the text is not an address.
int pdfpipe_text_address_is_private(const char *text);

const char *pdfpipe_transfer_location(const pdfpipe_transfer *t);

const char *pdfpipe_transfer_content_type(const pdfpipe_transfer *t);

const char *pdfpipe_transfer_retry_after(const pdfpipe_transfer *t);

const char *pdfpipe_transfer_server(const pdfpipe_transfer *t);

const char *pdfpipe_transfer_signals(const pdfpipe_transfer *t);

const char *pdfpipe_transfer_snippet(const pdfpipe_transfer *t);

/// Seconds to wait from a Retry-After value (seconds, or an HTTP date); -1 when it is neither.
long pdfpipe_retry_after_seconds(const char *value);

int pdfpipe_curl_global_init(void);

/// Options that stay the same for every request made through one handle.
void pdfpipe_curl_setup(CURL *h, pdfpipe_transfer *t, const char *user_agent);

/// One request. `method_head`: HEAD (no body) or GET. Headers: a curl_slist or NULL.
CURLcode pdfpipe_curl_request(
    CURL *h, pdfpipe_transfer *t, const char *url, int method_head, struct curl_slist *headers,
    long timeout_ms, long connect_timeout_ms, const char *proxy);

/// Sets up one request on `h` without performing it (`fresh`: on a new connection).
void pdfpipe_curl_prepare(
    CURL *h, pdfpipe_transfer *t, const char *url, int method_head, struct curl_slist *headers,
    long timeout_ms, long connect_timeout_ms, const char *proxy, int fresh);

/// A multi handle (NULL when libcurl cannot make one), its connection cache sized for a checker.
CURLM *pdfpipe_multi_init(void);

/// The next finished transfer of `m`: 1 with its handle and result, 0 when there is none.
int pdfpipe_multi_next_done(CURLM *m, CURL **easy, CURLcode *result);

long pdfpipe_curl_status(CURL *h);

/// What one object-storage request gave: the status, the ETag, a small body (XML of a listing or
/// an error) when no file takes it, and libcurl's error text.
typedef struct pdfpipe_s3_result {
    long status;
    char etag[256];
    char last_modified[128];
    char error[CURL_ERROR_SIZE];
    /// The body when `download` was NULL (malloc'ed, at most `body_cap` bytes; free with
    /// pdfpipe_s3_result_free); the bytes past the cap are dropped and `body_truncated` set.
    char *body;
    long long body_len;
    long long body_cap;
    int body_truncated;
    /// The file the body goes to when the status is 2xx (a GET of an object), else NULL.
    FILE *download;
    long long downloaded;
    /// Most bytes written to `download` (0: no limit); past it the transfer stops and
    /// `download_truncated` is set.
    long long download_limit;
    int download_truncated;
} pdfpipe_s3_result;

/// One signed request (SigV4 through libcurl: `sigv4` is "aws:amz:REGION:s3", `userpwd`
/// "KEY:SECRET"). `method`: GET, HEAD, PUT or DELETE; a PUT sends `upload_size` bytes read from
/// `upload`. The URL's path and query must already be in SigV4's canonical form (libcurl 7.88
/// signs them as given).
CURLcode pdfpipe_s3_request(
    CURL *h, const char *method, const char *url, const char *sigv4, const char *userpwd,
    struct curl_slist *headers, FILE *upload, long long upload_size, pdfpipe_s3_result *r,
    long timeout_ms, long connect_timeout_ms);

void pdfpipe_s3_result_free(pdfpipe_s3_result *r);

#endif

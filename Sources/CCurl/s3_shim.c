#include "pp_curl.h"

// Object storage requests (S3's API), one easy handle per thread, kept between requests so that
// connections are reused. The body of a successful GET goes to the caller's file; any other body
// (a listing's XML, an error document) is kept in memory up to its cap.

static size_t pdfpipe_s3_write(char *data, size_t size, size_t n, void *userdata) {
    pdfpipe_s3_result *r = (pdfpipe_s3_result *)userdata;
    size_t len = size * n;
    if (r->download && r->status >= 200 && r->status < 300) {
        if (r->download_limit > 0 && r->downloaded + (long long)len > r->download_limit) {
            r->download_truncated = 1;
            return 0;   // past the cap: the transfer stops (CURLE_WRITE_ERROR)
        }
        if (fwrite(data, 1, len, r->download) != len) return 0;   // a write error stops the transfer
        r->downloaded += (long long)len;
        return len;
    }
    long long room = r->body_cap - r->body_len;
    size_t keep = len;
    if ((long long)keep > room) { keep = room > 0 ? (size_t)room : 0; r->body_truncated = 1; }
    if (keep > 0) {
        char *grown = realloc(r->body, (size_t)(r->body_len + (long long)keep + 1));
        if (!grown) return 0;
        r->body = grown;
        memcpy(r->body + r->body_len, data, keep);
        r->body_len += (long long)keep;
        r->body[r->body_len] = 0;
    }
    return len;
}

static void pdfpipe_s3_copy_header(char *dst, size_t cap, const char *value, size_t len) {
    while (len > 0 && (value[len - 1] == '\r' || value[len - 1] == '\n' || value[len - 1] == ' ')) len--;
    while (len > 0 && *value == ' ') { value++; len--; }
    if (len >= cap) len = cap - 1;
    memcpy(dst, value, len);
    dst[len] = 0;
}

static size_t pdfpipe_s3_header(char *data, size_t size, size_t n, void *userdata) {
    pdfpipe_s3_result *r = (pdfpipe_s3_result *)userdata;
    size_t len = size * n;
    if (len >= 5 && strncmp(data, "HTTP/", 5) == 0) {
        // A new response (after a 100 Continue, say): its status line.
        const char *sp = memchr(data, ' ', len);
        r->status = sp ? strtol(sp + 1, NULL, 10) : 0;
        r->etag[0] = 0;
        r->last_modified[0] = 0;
    } else if (len > 5 && strncasecmp(data, "etag:", 5) == 0) {
        pdfpipe_s3_copy_header(r->etag, sizeof r->etag, data + 5, len - 5);
    } else if (len > 14 && strncasecmp(data, "last-modified:", 14) == 0) {
        pdfpipe_s3_copy_header(r->last_modified, sizeof r->last_modified, data + 14, len - 14);
    }
    return len;
}

CURLcode pdfpipe_s3_request(
    CURL *h, const char *method, const char *url, const char *sigv4, const char *userpwd,
    struct curl_slist *headers, FILE *upload, long long upload_size, pdfpipe_s3_result *r,
    long timeout_ms, long connect_timeout_ms) {
    curl_easy_reset(h);
    r->status = 0;
    r->etag[0] = 0;
    r->last_modified[0] = 0;
    r->error[0] = 0;
    r->body_len = 0;
    r->body_truncated = 0;
    r->downloaded = 0;
    r->download_truncated = 0;
    if (r->body_cap <= 0) r->body_cap = 1 << 20;
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4);
    curl_easy_setopt(h, CURLOPT_USERPWD, userpwd);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, pdfpipe_s3_write);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, pdfpipe_s3_header);
    curl_easy_setopt(h, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(h, CURLOPT_ERRORBUFFER, r->error);
    curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
    // A store on loopback or a private network is what object storage usually is: no address policy.
    if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
    } else if (strcmp(method, "PUT") == 0) {
        curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
        curl_easy_setopt(h, CURLOPT_READDATA, upload);
        curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)upload_size);
    } else if (strcmp(method, "GET") != 0) {
        curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
    }
    return curl_easy_perform(h);
}

void pdfpipe_s3_result_free(pdfpipe_s3_result *r) {
    free(r->body);
    r->body = NULL;
    r->body_len = 0;
}

package dev.stockhold.web;

import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.core.HttpHeaders;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import dev.stockhold.StockholdConfig;
import io.quarkus.logging.Log;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.impl.RoutingContextInternal;

/**
 * Request bodies at the HTTP layer, before authentication's limits and before JAX-RS: every API body is read whole on
 * the event loop, over HTTP/1.1 and HTTP/2 alike, so a slow upload holds no worker thread and no admission slot
 * (dev.stockhold.security.Admission runs after it). A body must arrive within
 * {@code stockhold.limits.body-read-timeout} (408 request-timeout: a body trickled a byte at a time is cut off) and
 * stay within {@code quarkus.http.limits.max-body-size} (413 payload-too-large, also for HTTP/2 and chunked bodies).
 * The path was put in its one form before (RequestFraming).
 */
public class RequestBodies {

    private final ProblemResponses responses;
    private final long limit;
    private final long readTimeoutMillis;

    RequestBodies(ProblemResponses responses, StockholdConfig config,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize limit) {
        this.responses = responses;
        this.limit = limit.asLongValue();
        this.readTimeoutMillis = config.limits().bodyReadTimeout().toMillis();
    }

    void register(@Observes Router router) {
        // Runs before Quarkus' own limit check (order -2), which would answer 413 with no body.
        router.route().order(-3).handler(ctx -> {
            String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length != null && exceeds(length)) {
                new Read(ctx).refuseAfterBody(ProblemType.PAYLOAD_TOO_LARGE, tooLarge());
            } else if (!isUtf8OrUnstated(ctx.request().getHeader(HttpHeaders.CONTENT_TYPE))) {
                new Read(ctx).refuseAfterBody(ProblemType.UNSUPPORTED_MEDIA_TYPE,
                        "Request bodies must be JSON encoded as UTF-8 (RFC 8259 section 8.1): charset, if given, is utf-8");
            } else {
                ctx.next();
            }
        });
        router.route("/v1/*").order(-2).handler(ctx -> {
            if (hasBody(ctx)) {
                new Read(ctx).start();
            } else {
                ctx.next(); // nothing to wait for; REST reads the empty body itself
            }
        });
        // A client that goes away mid-body fails the route: nobody to answer, nothing to log as a server error.
        router.route().order(-3).failureHandler(ctx -> {
            if (ctx.failure() instanceof HttpClosedException) {
                return;
            }
            ctx.next();
        });
    }

    /**
     * One body being read: it ends once, with the whole body passed on, a refusal, or the timeout. A body refused for
     * its size is still read to its end (and dropped) before the answer, so a client that reads its answer only after
     * sending gets the 413; the read timeout bounds that too.
     */
    private final class Read {
        private final RoutingContext ctx;
        private final HttpServerRequest request;
        private final boolean http2;
        private final Buffer body = Buffer.buffer();
        /** The declared length, or -1 (chunked HTTP/1.1). */
        private final long declared;
        private long timer = -1;
        private boolean finished;
        /** Set when the body is refused for its size: the rest is read and dropped, then this is the answer. */
        private ProblemType refusal;
        private String refusalDetail;

        Read(RoutingContext ctx) {
            this.ctx = ctx;
            this.request = ctx.request();
            this.http2 = request.version() == HttpVersion.HTTP_2;
            String length = request.getHeader(HttpHeaders.CONTENT_LENGTH);
            this.declared = length == null ? -1 : parse(length);
        }

        void start() {
            if (http2 && (declared == 0 || declared < 0 && !isUpload(request))) {
                // an HTTP/2 stream still open after a declared empty body (or a request without one): nothing to wait
                // for, whether or not the stream's end ever comes
                pass();
                return;
            }
            if (http2 && declared < 0) {
                // REST pauses every request it takes over, which an ended HTTP/2 stream refuses: the body must end
                // where its Content-Length says, before the stream does
                refuseAfterBody(ProblemType.LENGTH_REQUIRED, "HTTP/2 request bodies need a Content-Length header");
                return;
            }
            read();
        }

        void refuseAfterBody(ProblemType type, String detail) {
            refusal = type;
            refusalDetail = detail;
            read();
        }

        private void read() {
            if ("100-continue".equalsIgnoreCase(request.getHeader("Expect"))) {
                ctx.response().writeContinue();
            }
            timer = ctx.vertx().setTimer(readTimeoutMillis, id -> timedOut());
            request.exceptionHandler(e -> finish());
            request.endHandler(v -> ended());
            if (http2) {
                // chunk by chunk, stopping at Content-Length: the stream's end stays queued, so REST can pause it
                request.pause();
                request.handler(chunk -> {
                    append(chunk);
                    if (refusal != null || body.length() < declared) {
                        request.fetch(1);
                    } else if (!finished) {
                        pass();
                    }
                });
                request.fetch(1);
            } else {
                request.handler(this::append);
                request.resume();
            }
        }

        private void append(Buffer chunk) {
            if (finished || refusal != null) {
                return; // dropped
            }
            body.appendBuffer(chunk);
            if (body.length() > limit) {
                refusal = ProblemType.PAYLOAD_TOO_LARGE;
                refusalDetail = tooLarge();
            }
        }

        private void ended() {
            if (finished) {
                return;
            }
            if (refusal != null) {
                finish();
                responses.end(ctx.response(), refusal, refusalDetail);
            } else if (declared >= 0 && body.length() != declared) {
                finish();
                refuseNow(ProblemType.MALFORMED_REQUEST, "The request body ended before its Content-Length");
            } else {
                pass();
            }
        }

        private void pass() {
            finish();
            ((RoutingContextInternal) ctx).setBody(body);
            ctx.next();
        }

        private void timedOut() {
            if (finished) {
                return;
            }
            finish();
            Log.debugf("Request body not complete after %d ms (%d bytes read): answered 408", readTimeoutMillis, body.length());
            if (refusal != null) {
                refuseNow(refusal, refusalDetail);
            } else {
                refuseNow(ProblemType.REQUEST_TIMEOUT,
                        "The request body did not arrive within " + readTimeoutMillis / 1000 + " s; nothing was changed");
            }
        }

        /**
         * Answers before the body has ended, and stops the rest of it: HTTP/1.1 closes the connection after the answer
         * (what is left of the body cannot be told from a next request); HTTP/2 resets only the stream, with NO_ERROR
         * after the complete answer (RFC 9113, 8.1), so the client stops sending and keeps the answer.
         */
        private void refuseNow(ProblemType type, String detail) {
            if (ctx.response().ended()) {
                return;
            }
            if (http2) {
                responses.end(ctx.response(), type, detail).onComplete(done -> ctx.response().reset(0));
            } else {
                responses.end(ctx.response().putHeader("Connection", "close"), type, detail)
                        .onComplete(done -> request.connection().close());
            }
        }

        private void finish() {
            finished = true;
            if (timer >= 0) {
                ctx.vertx().cancelTimer(timer);
            }
        }
    }

    private static boolean hasBody(RoutingContext ctx) {
        String length = ctx.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (ctx.request().version() == HttpVersion.HTTP_2) {
            // "content-length: 0" without END_STREAM is read as what it declares (Read.start), not left to wait for the
            // stream's end with a place taken
            return !ctx.request().isEnded();
        }
        if (length != null) {
            return !length.trim().equals("0");
        }
        return ctx.request().getHeader("Transfer-Encoding") != null;
    }

    private static boolean isUpload(HttpServerRequest request) {
        return request.method().name().startsWith("P");
    }

    /**
     * Not a JSON Content-Type, or one without a charset parameter or with charset=utf-8 (JSON has no other, RFC 8259
     * section 8.1). Other media types are JAX-RS' to refuse (415) where a body is expected.
     */
    static boolean isUtf8OrUnstated(String contentType) {
        String mediaType = contentType == null ? "" : contentType.split(";", 2)[0].strip().toLowerCase(java.util.Locale.ROOT);
        if (!mediaType.equals("application/json") && !mediaType.endsWith("+json")) {
            return true;
        }
        for (String parameter : contentType.split(";")) {
            String[] pair = parameter.split("=", 2);
            if (pair.length == 2 && pair[0].strip().equalsIgnoreCase("charset")) {
                String charset = pair[1].strip().replace("\"", "");
                if (!charset.equalsIgnoreCase("utf-8") && !charset.equalsIgnoreCase("utf8")) {
                    return false;
                }
            }
        }
        return true;
    }

    private static long parse(String contentLength) {
        try {
            return Long.parseLong(contentLength.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private boolean exceeds(String contentLength) {
        return parse(contentLength) > limit;
    }

    private String tooLarge() {
        return "Request body exceeds the limit of " + limit + " bytes";
    }
}

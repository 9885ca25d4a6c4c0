package dev.stockhold.web;

import java.util.ArrayList;
import java.util.List;

import jakarta.transaction.RollbackException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import dev.stockhold.Causes;
import dev.stockhold.CommitOutcomeUnknownException;
import dev.stockhold.DatabaseFailures;
import io.quarkus.logging.Log;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;

/** Every exception that reaches JAX-RS leaves as problem+json; nothing internal is ever echoed. */
public class ProblemMappers {

    private final ProblemResponses responses;
    private final io.quarkus.vertx.http.runtime.CurrentVertxRequest request;

    ProblemMappers(ProblemResponses responses, io.quarkus.vertx.http.runtime.CurrentVertxRequest request) {
        this.responses = responses;
        this.request = request;
    }

    @ServerExceptionMapper
    public Response problem(ProblemException e) {
        Response.ResponseBuilder builder = responses.builder(e.problem());
        if (e.retryAfterSeconds() != null) {
            builder.header(HttpHeaders.RETRY_AFTER, e.retryAfterSeconds());
        }
        return builder.build();
    }

    @ServerExceptionMapper({ AuthenticationFailedException.class, UnauthorizedException.class })
    public Response unauthorized(RuntimeException e) {
        return responses.builder(Problem.of(ProblemType.UNAUTHORIZED, describe(ProblemType.UNAUTHORIZED)))
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .build();
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e) {
        return responses.response(Problem.of(ProblemType.FORBIDDEN, describe(ProblemType.FORBIDDEN)));
    }

    @ServerExceptionMapper
    public Response constraintViolation(ConstraintViolationException e) {
        List<Problem.Violation> violations = new ArrayList<>();
        for (ConstraintViolation<?> v : e.getConstraintViolations()) {
            String path = v.getPropertyPath().toString();
            violations.add(new Problem.Violation(path.substring(path.lastIndexOf('.') + 1), v.getMessage()));
        }
        return problem(new ValidationFailedException(violations));
    }

    @ServerExceptionMapper
    public Response webApplication(WebApplicationException e) {
        int status = e.getResponse().getStatus();
        ProblemType type = switch (status) {
            case 401 -> ProblemType.UNAUTHORIZED;
            case 403 -> ProblemType.FORBIDDEN;
            case 404 -> ProblemType.NOT_FOUND;
            case 405 -> ProblemType.METHOD_NOT_ALLOWED;
            case 406 -> ProblemType.NOT_ACCEPTABLE;
            case 413 -> ProblemType.PAYLOAD_TOO_LARGE;
            case 415 -> ProblemType.UNSUPPORTED_MEDIA_TYPE;
            case 503 -> ProblemType.SERVICE_UNAVAILABLE;
            default -> status >= 500 ? ProblemType.INTERNAL_ERROR : ProblemType.MALFORMED_REQUEST;
        };
        if (status >= 500) {
            Log.errorf(Causes.redacted(e), "Request failed: %s", Causes.summary(e));
        }
        Response.ResponseBuilder builder = responses.builder(Problem.of(type, describe(type)));
        if (status == 405 && e.getResponse().getHeaderString(HttpHeaders.ALLOW) != null) {
            builder.header(HttpHeaders.ALLOW, e.getResponse().getHeaderString(HttpHeaders.ALLOW));
        }
        return builder.build();
    }

    /** The detail of a 503 after an interrupted commit; clients treat it like a lost response. */
    public static final String OUTCOME_UNKNOWN = "The database failed while committing; the outcome is unknown."
            + " Retry with the same Idempotency-Key (or read the reservation) to learn it";

    @ServerExceptionMapper(priority = 6000)
    public Response unexpected(Throwable e) {
        if (isClientGone(e)) {
            // the client closed the connection before its body was read: nobody to answer, not a server error
            Log.debugf("Client went away before its request was read: %s", Causes.rootMessage(e));
            return responses.response(Problem.of(ProblemType.MALFORMED_REQUEST, "The request body could not be read"));
        }
        if (isAnswerCut()) {
            // the client reset its HTTP/2 stream or closed the connection while the answer was being written (or the
            // write timeout cut it): what it asked for is done, there is nobody left to tell
            Log.debugf("Answer not delivered, the stream or connection was closed: %s", Causes.summary(e));
            return responses.response(Problem.of(ProblemType.MALFORMED_REQUEST, "The answer could not be written"));
        }
        if (isInterruptedCommit(e)) {
            Log.warnf("Commit interrupted by a database failure, outcome unknown: %s", Causes.summary(e));
            return responses.builder(Problem.of(ProblemType.SERVICE_UNAVAILABLE, OUTCOME_UNKNOWN))
                    .header(HttpHeaders.RETRY_AFTER, "1")
                    .build();
        }
        if (DatabaseFailures.isTransient(e)) {
            Log.warnf("Request rolled back by a transient database failure: %s", Causes.summary(e));
            return responses.builder(Problem.of(ProblemType.SERVICE_UNAVAILABLE,
                    "The database is unavailable or busy; nothing was changed, retry with the same Idempotency-Key"))
                    .header(HttpHeaders.RETRY_AFTER, "1")
                    .build();
        }
        Log.errorf(Causes.redacted(e), "Unexpected failure: %s", Causes.summary(e));
        return responses.response(Problem.of(ProblemType.INTERNAL_ERROR, "An unexpected error occurred; nothing was changed"));
    }

    private static String describe(ProblemType type) {
        return switch (type) {
            case NOT_FOUND -> "No resource at this path";
            case METHOD_NOT_ALLOWED -> "This resource does not support the request method";
            case NOT_ACCEPTABLE -> "Responses are application/json or application/problem+json";
            case UNSUPPORTED_MEDIA_TYPE -> "Request bodies must be application/json";
            case PAYLOAD_TOO_LARGE -> "Request body exceeds the size limit";
            case UNAUTHORIZED -> "A valid bearer token with a tenant_id claim is required";
            case FORBIDDEN -> "The token lacks the role this operation needs";
            default -> "The request could not be processed";
        };
    }

    /**
     * The connection failed during COMMIT (a PostgreSQL restart does this): the transaction manager reports a
     * rollback, but the commit may have landed before the connection went (the chaos run caught exactly that).
     * The same for a statement that was its own commit ({@link CommitOutcomeUnknownException}).
     * Nobody can know here; the caller learns the outcome by retrying with the same key (or GET / confirm again).
     */
    static boolean isInterruptedCommit(Throwable e) {
        return Causes.any(e, RollbackException.class) || Causes.any(e, CommitOutcomeUnknownException.class);
    }

    /** The connection was closed by the client while the request was read (a timeout on its side, a reset stream). */
    private boolean isAnswerCut() {
        io.vertx.ext.web.RoutingContext ctx = request.getCurrent();
        return ctx != null && ctx.response().closed();
    }

    static boolean isClientGone(Throwable e) {
        return Causes.any(e, java.nio.channels.ClosedChannelException.class)
                || Causes.any(e, io.vertx.core.http.HttpClosedException.class);
    }

}

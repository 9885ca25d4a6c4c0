package dev.stockhold.web;

/** malformed-request: the body is not JSON at all. */
public class MalformedRequestException extends ProblemException {

    public MalformedRequestException(String detail) {
        super(ProblemType.MALFORMED_REQUEST, detail);
    }
}

package dev.stockhold.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The filters of a list, by the API's parameter names ({@code status}, {@code sku}, {@code createdFrom}, ...; see each
 * list's operation). A null value is left out; a name given twice is sent twice ({@code sku} of the stock list).
 */
public final class Query {

    private final List<Map.Entry<String, Object>> parameters = new ArrayList<>();

    private Query() {
    }

    public static Query of() {
        return new Query();
    }

    public Query with(String name, Object value) {
        if (value != null) {
            parameters.add(Map.entry(name, value));
        }
        return this;
    }

    Request applyTo(Request request) {
        Request with = request;
        for (Map.Entry<String, Object> parameter : parameters) {
            with = with.query(parameter.getKey(), parameter.getValue());
        }
        return with;
    }
}

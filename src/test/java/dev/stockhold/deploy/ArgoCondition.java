package dev.stockhold.deploy;

import java.util.List;

/**
 * Argo Rollouts' verdict on one measurement of a Prometheus metric, decided as its Prometheus provider does: an instant
 * vector becomes {@code result}, a list of the samples' values (empty when the query matched nothing), and the
 * metric's {@code successCondition} is evaluated over it. An expression that fails (such as {@code result[0]} of an
 * empty list) is an Error measurement, not a pass.
 *
 * <p>The expression language is the part of expr-lang the AnalysisTemplates here use: {@code ||}, {@code &&},
 * comparisons, parentheses, numbers, {@code result}, {@code result[i]}, {@code len(x)}, {@code isNaN(x)}.
 */
final class ArgoCondition {

    enum Phase {
        SUCCESSFUL,
        FAILED,
        ERROR
    }

    record Verdict(Phase phase, List<Double> result, String error) {
    }

    static Verdict evaluate(String condition, List<Double> result) {
        try {
            Object value = new Parser(condition, result).parse();
            if (!(value instanceof Boolean passed)) {
                return new Verdict(Phase.ERROR, result, "condition is not a boolean: " + value);
            }
            return new Verdict(passed ? Phase.SUCCESSFUL : Phase.FAILED, result, null);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return new Verdict(Phase.ERROR, result, e.toString());
        }
    }

    private static final class Parser {
        private final String text;
        private final List<Double> result;
        private int at;

        Parser(String text, List<Double> result) {
            this.text = text;
            this.result = result;
        }

        Object parse() {
            Object value = or();
            skip();
            if (at != text.length()) {
                throw new IllegalArgumentException("unexpected '" + text.substring(at) + "'");
            }
            return value;
        }

        private Object or() {
            Object left = and();
            while (take("||")) {
                if (bool(left)) { // short-circuit, as expr does: the right side is not evaluated
                    skipOperand(this::and);
                    left = true;
                } else {
                    left = bool(and());
                }
            }
            return left;
        }

        private Object and() {
            Object left = comparison();
            while (take("&&")) {
                if (!bool(left)) {
                    skipOperand(this::comparison);
                    left = false;
                } else {
                    left = bool(comparison());
                }
            }
            return left;
        }

        /** Parses an operand without its effects: evaluation errors inside it do not count. */
        private void skipOperand(java.util.function.Supplier<Object> operand) {
            int start = at;
            try {
                operand.get();
            } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
                at = start;
                skipBalanced();
            }
        }

        private void skipBalanced() {
            int depth = 0;
            while (at < text.length()) {
                char c = text.charAt(at);
                if (depth == 0 && (text.startsWith("||", at) || text.startsWith("&&", at) || c == ')')) {
                    return;
                }
                depth += c == '(' || c == '[' ? 1 : c == ')' || c == ']' ? -1 : 0;
                at++;
            }
        }

        private Object comparison() {
            Object left = operand();
            for (String op : List.of("<=", ">=", "==", "!=", "<", ">")) {
                if (take(op)) {
                    double l = number(left);
                    double r = number(operand());
                    return switch (op) {
                        case "<=" -> l <= r;
                        case ">=" -> l >= r;
                        case "==" -> l == r;
                        case "!=" -> l != r;
                        case "<" -> l < r;
                        default -> l > r;
                    };
                }
            }
            return left;
        }

        private Object operand() {
            skip();
            if (take("(")) {
                Object inner = or();
                expect(")");
                return inner;
            }
            if (take("isNaN(")) {
                Object inner = or();
                expect(")");
                return Double.isNaN(number(inner));
            }
            if (take("len(")) {
                Object inner = or();
                expect(")");
                if (!(inner instanceof List<?> list)) {
                    throw new IllegalArgumentException("len of a non-list");
                }
                return (double) list.size();
            }
            if (take("result")) {
                if (take("[")) {
                    int index = (int) number(operand());
                    expect("]");
                    return result.get(index);
                }
                return result;
            }
            int start = at;
            while (at < text.length() && (Character.isDigit(text.charAt(at)) || text.charAt(at) == '.' || text.charAt(at) == '-')) {
                at++;
            }
            if (start == at) {
                throw new IllegalArgumentException("unexpected '" + text.substring(at) + "'");
            }
            return Double.parseDouble(text.substring(start, at));
        }

        private boolean take(String token) {
            skip();
            if (text.startsWith(token, at)) {
                at += token.length();
                return true;
            }
            return false;
        }

        private void expect(String token) {
            if (!take(token)) {
                throw new IllegalArgumentException("expected '" + token + "' at " + at);
            }
        }

        private void skip() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private static boolean bool(Object value) {
            if (value instanceof Boolean b) {
                return b;
            }
            throw new IllegalArgumentException("not a boolean: " + value);
        }

        private static double number(Object value) {
            if (value instanceof Double d) {
                return d;
            }
            throw new IllegalArgumentException("not a number: " + value);
        }
    }
}

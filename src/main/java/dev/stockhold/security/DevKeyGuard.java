package dev.stockhold.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.Key;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import jakarta.enterprise.event.Observes;

import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.lang.JoseException;

import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.KeyLocationResolver;
import io.smallrye.jwt.auth.principal.ParseException;

/**
 * The prod build refuses to start if the configured verifier would accept a token signed with one of the repository's
 * published keys (DEV-ONLY, TEST-ONLY). It does not read keys itself, since a guard that parses key formats always lags the
 * parser that is used: it hands fixed tokens signed with those keys (repository-key-probes/tokens.txt, one per RSA
 * algorithm; the private keys are not in the packaged application) to smallrye-jwt's own parser, with the context
 * smallrye-jwt built from every key property it honours ({@code mp.jwt.verify.publickey[.location]},
 * {@code smallrye.jwt.verify.key.location}, keystores, formats, algorithms), and with only the claim checks (issuer,
 * audience, lifetime, required claims) left out: whatever wraps the key, if the probe's signature verifies, so would an
 * attacker's. A key set chooses its key by the token's {@code kid}, which the probes cannot carry for every set, so each
 * kid of a configured local key set is resolved by smallrye-jwt's resolver and the probe's signature is checked with
 * the key it resolves. A local key that smallrye-jwt cannot load at all refuses the start too: it would read it only
 * at the first request and fail every request of a ready pod. An http(s) key set is the identity provider's, checked
 * as far as it answers at the start.
 */
@IfBuildProfile("prod")
public class DevKeyGuard {

    static final String PROBES = "repository-key-probes/tokens.txt";

    /** A token signed by a repository key ({@code dev} or {@code test}) with one algorithm. */
    record Probe(String key, String algorithm, String token) {
    }

    void check(@Observes StartupEvent event, JWTAuthContextInfo configured) {
        refusal(configured, probes()).ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
    }

    /** Why the configured verifier must not serve in prod, if it must not. */
    static Optional<String> refusal(JWTAuthContextInfo configured, List<Probe> probes) {
        JWTAuthContextInfo signatureOnly = signatureOnly(configured);
        for (Probe probe : probes) {
            if (verifies(signatureOnly, probe)) {
                return Optional.of(accepted(probe, "as configured"));
            }
        }
        Optional<LocalKeys> keys;
        try {
            keys = LocalKeys.of(signatureOnly);
        } catch (Exception e) {
            return Optional.of("The configured token verification key (" + where(configured) + ") cannot be loaded: no "
                    + "token could be verified (MP_JWT_VERIFY_PUBLICKEY_LOCATION): " + e.getMessage());
        }
        if (keys.isPresent()) {
            for (Probe probe : probes) {
                for (String kid : keys.get().kids()) {
                    if (keys.get().verifies(kid, probe)) {
                        return Optional.of(accepted(probe, "under kid '" + kid + "'"));
                    }
                }
            }
        }
        return Optional.empty();
    }

    private static String accepted(Probe probe, String how) {
        return "The configured token verification key accepts a token signed with the repository's published "
                + probe.key().toUpperCase(java.util.Locale.ROOT) + "-ONLY key (" + probe.algorithm() + ", " + how
                + "); the prod profile trusts only a key you provide (MP_JWT_VERIFY_PUBLICKEY_LOCATION)";
    }

    /** The configured context with the claim checks left out: only the key and the algorithms decide. */
    static JWTAuthContextInfo signatureOnly(JWTAuthContextInfo configured) {
        JWTAuthContextInfo copy = new JWTAuthContextInfo(configured);
        copy.setIssuedBy(null);
        copy.setExpectedAudience(null);
        copy.setMaxTimeToLiveSecs(null);
        copy.setRequiredClaims(Set.of());
        copy.setRequireNamedPrincipal(false);
        return copy;
    }

    private static boolean verifies(JWTAuthContextInfo context, Probe probe) {
        try {
            new DefaultJWTParser(context).parse(probe.token());
            return true;
        } catch (ParseException | RuntimeException e) {
            return false;
        }
    }

    private static String where(JWTAuthContextInfo configured) {
        return configured.getPublicKeyLocation() != null ? configured.getPublicKeyLocation() : "inline key";
    }

    /** The probes shipped with the application. */
    static List<Probe> probes() {
        try (InputStream in = DevKeyGuard.class.getClassLoader().getResourceAsStream(PROBES)) {
            if (in == null) {
                throw new IllegalStateException(PROBES + " is missing from the application: the dev-key check cannot run");
            }
            List<Probe> probes = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.US_ASCII).split("\n")) {
                String[] parts = line.strip().split(" ");
                if (parts.length == 3 && !line.startsWith("#")) {
                    probes.add(new Probe(parts[0], parts[1], parts[2]));
                }
            }
            return probes;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot read " + PROBES, e);
        }
    }

    /** The keys smallrye-jwt loaded from a local key set (file, resource or inline), by their kid. */
    private static final class LocalKeys extends KeyLocationResolver {

        private LocalKeys(JWTAuthContextInfo context) throws Exception {
            super(context);
        }

        /** Empty when no local key is configured or the location is an http(s) key set that did not answer. */
        static Optional<LocalKeys> of(JWTAuthContextInfo context) throws Exception {
            boolean local = context.getPublicKeyContent() != null
                    || context.getPublicKeyLocation() != null && !isUrl(context.getPublicKeyLocation());
            if (!local && context.getPublicKeyLocation() == null) {
                return Optional.empty();
            }
            try {
                return Optional.of(new LocalKeys(context));
            } catch (Exception e) {
                if (local) {
                    throw e;
                }
                return Optional.empty(); // the identity provider's key set, not answering now: it is read when it does
            }
        }

        List<String> kids() {
            List<String> kids = new ArrayList<>();
            if (jsonWebKeys != null) {
                jsonWebKeys.stream().map(JsonWebKey::getKeyId).filter(kid -> kid != null).forEach(kids::add);
            }
            if (httpsJwks != null) {
                try {
                    httpsJwks.getJsonWebKeys().stream().map(JsonWebKey::getKeyId).filter(kid -> kid != null).forEach(kids::add);
                } catch (JoseException | IOException e) {
                    // not answering now: nothing to probe
                }
            }
            return kids;
        }

        /** Whether the key smallrye-jwt resolves for a token naming this kid verifies the probe's signature. */
        boolean verifies(String kid, Probe probe) {
            try {
                JsonWebSignature header = new JsonWebSignature();
                header.setAlgorithmHeaderValue(probe.algorithm());
                header.setKeyIdHeaderValue(kid);
                Key key = resolveKey(header, List.of());
                JsonWebSignature signed = new JsonWebSignature();
                signed.setCompactSerialization(probe.token());
                signed.setKey(key);
                signed.setDoKeyValidation(false);
                return signed.verifySignature();
            } catch (Exception e) {
                return false;
            }
        }

        private static boolean isUrl(String location) {
            return location.startsWith("http:") || location.startsWith("https:");
        }
    }
}

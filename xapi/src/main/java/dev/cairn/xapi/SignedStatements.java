package dev.cairn.xapi;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Signed statements (Data 2.6): the signature attachment holds a JWS in compact serialization (RFC 7515) whose
 * payload is the statement as it was before the signature was attached. The LRS checks that the algorithm is
 * RS256, RS384 or RS512, that the payload is a statement equivalent (Data 2.3.1) to the one received minus its
 * signature attachment, and, when the JWS header carries an x5c certificate chain, that each certificate is signed
 * by the next and the signature verifies with the first one's public key. Without x5c the LRS has no key to check
 * the signature with, so only the form and the payload are checked. Uses the JDK's own crypto.
 */
public final class SignedStatements {
    public static final String SIGNATURE_USAGE = "http://adlnet.gov/expapi/attachments/signature";
    public static final String SIGNATURE_TYPE = "application/octet-stream";
    private static final Map<String, String> ALGORITHMS = Map.of("RS256", "SHA256withRSA", "RS384", "SHA384withRSA",
            "RS512", "SHA512withRSA");
    private static final JsonFactory FACTORY = new JsonFactory();

    private SignedStatements() {
    }

    /** The signature attachment of a statement, or null when it is not signed. */
    public static Attachment signature(Statement s) {
        if (s.attachments() != null) {
            for (Attachment a : s.attachments()) {
                if (SIGNATURE_USAGE.equals(a.usageType())) {
                    return a;
                }
            }
        }
        return null;
    }

    /**
     * Checks the JWS {@code jws} of the signed statement {@code s}; {@code where} names the statement in errors.
     *
     * @throws XapiException when the signature attachment or the JWS is not what Data 2.6 requires
     */
    public static void verify(Statement s, byte[] jws, XapiVersion version, String where) {
        Attachment attachment = signature(s);
        if (!SIGNATURE_TYPE.equals(attachment.contentType())) {
            throw invalid(where, "its signature attachment has contentType '" + attachment.contentType()
                    + "'; a signature must be " + SIGNATURE_TYPE);
        }
        String[] pieces = new String(jws, StandardCharsets.US_ASCII).trim().split("\\.", -1);
        if (pieces.length != 3) {
            throw invalid(where, "its signature is not a JWS in compact serialization (header.payload.signature)");
        }
        Header header = header(decode(pieces[0], where, "header"), where);
        String algorithm = ALGORITHMS.get(header.alg());
        if (algorithm == null) {
            throw invalid(where, "its JWS uses algorithm '" + header.alg() + "'; only RS256, RS384 and RS512 are allowed");
        }
        byte[] payload = decode(pieces[1], where, "payload");
        byte[] signatureBytes = decode(pieces[2], where, "signature");
        Statement signed;
        try {
            signed = StatementParser.parseOne(payload, version).statement();
        } catch (XapiException e) {
            throw invalid(where, "its JWS payload is not a valid statement (" + e.where() + ": " + e.getMessage() + ")");
        }
        if (!Equivalence.equivalent(unsigned(s, signed.id()), unsigned(signed, signed.id()))) {
            throw invalid(where, "its JWS payload is not the statement it signs (without the signature attachment)");
        }
        if (!header.x5c().isEmpty()) {
            PublicKey key = chainKey(header.x5c(), where);
            try {
                Signature verifier = Signature.getInstance(algorithm);
                verifier.initVerify(key);
                verifier.update((pieces[0] + "." + pieces[1]).getBytes(StandardCharsets.US_ASCII));
                if (!verifier.verify(signatureBytes)) {
                    throw invalid(where, "its JWS signature does not verify with the key of its x5c certificate");
                }
            } catch (GeneralSecurityException e) {
                throw invalid(where, "its JWS signature cannot be verified: " + e.getMessage());
            }
        }
    }

    /** The statement without its signature attachment, with {@code id} when it has none (the payload may omit it). */
    private static Statement unsigned(Statement s, java.util.UUID id) {
        List<Attachment> rest = new ArrayList<>();
        if (s.attachments() != null) {
            for (Attachment a : s.attachments()) {
                if (!SIGNATURE_USAGE.equals(a.usageType())) {
                    rest.add(a);
                }
            }
        }
        return new Statement(s.id() != null ? s.id() : id, s.actor(), s.verb(), s.object(), s.result(), s.context(),
                s.timestamp(), s.stored(), s.authority(), s.version(), rest.isEmpty() ? null : rest);
    }

    private static PublicKey chainKey(List<String> x5c, String where) {
        try {
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            List<X509Certificate> chain = new ArrayList<>();
            for (String cert : x5c) {
                chain.add((X509Certificate) factory.generateCertificate(
                        new ByteArrayInputStream(Base64.getDecoder().decode(cert))));
            }
            for (int i = 0; i + 1 < chain.size(); i++) {
                chain.get(i).verify(chain.get(i + 1).getPublicKey());
            }
            PublicKey key = chain.get(0).getPublicKey();
            if (!(key instanceof RSAPublicKey)) {
                throw invalid(where, "the first certificate of its x5c chain has a " + key.getAlgorithm()
                        + " key; RS256, RS384 and RS512 need an RSA key");
            }
            return key;
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw invalid(where, "the x5c certificate chain of its JWS is not valid: " + e.getMessage());
        }
    }

    private record Header(String alg, List<String> x5c) {
    }

    private static Header header(byte[] json, String where) {
        String alg = null;
        List<String> x5c = new ArrayList<>();
        try (JsonParser p = FACTORY.createParser(json)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw invalid(where, "its JWS header is not a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("alg") && value == JsonToken.VALUE_STRING) {
                    alg = p.getText();
                } else if (name.equals("x5c") && value == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.VALUE_STRING) {
                        x5c.add(p.getText());
                    }
                    if (p.currentToken() != JsonToken.END_ARRAY) {
                        throw invalid(where, "the x5c of its JWS header must be an array of strings");
                    }
                } else {
                    p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw invalid(where, "its JWS header is not valid JSON: " + e.getMessage());
        }
        if (alg == null) {
            throw invalid(where, "its JWS header has no alg");
        }
        return new Header(alg, x5c);
    }

    private static byte[] decode(String base64url, String where, String piece) {
        try {
            return Base64.getUrlDecoder().decode(base64url);
        } catch (IllegalArgumentException e) {
            throw invalid(where, "the " + piece + " of its JWS is not base64url: " + e.getMessage());
        }
    }

    private static XapiException invalid(String where, String why) {
        return new XapiException(where, "signature.invalid", "the signed statement is rejected: " + why);
    }
}

package dev.cairn.importer;

import dev.cairn.xapi.Attachment;
import dev.cairn.xapi.Equivalence;
import dev.cairn.xapi.ParsedStatement;
import dev.cairn.xapi.SignedStatements;
import dev.cairn.xapi.StatementParser;
import dev.cairn.xapi.XapiException;
import dev.cairn.xapi.XapiVersion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A batch after parsing and validation: the valid statements, each with an id (a deterministic one where the
 * source gave none, see {@link ImportIds}) and no id twice; the rejected ones with their reasons; and how many
 * repeated an equivalent statement earlier in the batch (already present, like the sequencer's no-op).
 *
 * @param statements valid statements in source order
 * @param raws       the source statement of each, for messages
 * @param rejected   statements refused by the parser, the attachment rule or an in-batch id clash
 * @param repeated   statements equivalent to one earlier in the batch (already present)
 * @param read       how many statements the batch had
 */
record ImportParsed(ImportSource source, List<ParsedStatement> statements, List<ImportBatch.Raw> raws,
                    List<ImportRejection> rejected, int repeated, int read) {

    /** Parses and validates every statement of {@code batch} with the rules of {@code version}. */
    static ImportParsed parse(ImportBatch batch, XapiVersion version) {
        ImportSource source = batch.source();
        int n = batch.statements().size();
        List<ParsedStatement> statements = new ArrayList<>(n);
        List<ImportBatch.Raw> raws = new ArrayList<>(n);
        List<ImportRejection> rejected = new ArrayList<>();
        Map<UUID, Integer> byId = new HashMap<>(n * 2);
        int repeated = 0;
        for (ImportBatch.Raw raw : batch.statements()) {
            ParsedStatement p;
            try {
                p = StatementParser.parseOne(raw.json(), version);
                checkAttachments(p);
            } catch (XapiException e) {
                rejected.add(new ImportRejection(source.name(), source.position(raw), e.where(), e.getMessage()));
                continue;
            }
            UUID id = p.statement().id();
            if (id == null) {
                id = ImportIds.of(raw.ordinal(), raw.json());
                p = ImportIds.withId(p, id);
            }
            Integer earlier = byId.putIfAbsent(id, statements.size());
            if (earlier != null) {
                if (Equivalence.equivalent(p.statement(), statements.get(earlier).statement())) {
                    repeated++;
                } else {
                    rejected.add(new ImportRejection(source.name(), source.position(raw), "$.id", "statement " + id
                            + " is also at " + source.position(raws.get(earlier)) + " with different content"));
                }
                continue;
            }
            statements.add(p);
            raws.add(raw);
        }
        return new ImportParsed(source, statements, raws, rejected, repeated, n);
    }

    /**
     * Attachment contents travel only in multipart requests, never in an import source, so a statement whose
     * attachment needs its content (no fileUrl, or a signature) cannot be imported whole.
     */
    private static void checkAttachments(ParsedStatement p) {
        List<Attachment> attachments = p.statement().attachments();
        if (attachments == null) {
            return;
        }
        for (int i = 0; i < attachments.size(); i++) {
            Attachment a = attachments.get(i);
            boolean signature = SignedStatements.SIGNATURE_USAGE.equals(a.usageType());
            if (a.fileUrl() == null || signature) {
                throw new XapiException("$.attachments[" + i + "]", "attachment.content_missing", "the attachment with "
                        + "sha2 " + a.sha2() + (signature ? " is a signature" : " has no fileUrl") + ", so its content "
                        + "is needed, and an import source carries none; POST this statement as multipart/mixed instead");
            }
        }
    }

    /**
     * This batch without the statement at {@code index} (refused by the sequencer), to submit again. Its parse
     * rejections and counts are already reported, so the copy carries none.
     */
    ImportParsed without(int index) {
        List<ParsedStatement> s = new ArrayList<>(statements);
        List<ImportBatch.Raw> r = new ArrayList<>(raws);
        s.remove(index);
        r.remove(index);
        return new ImportParsed(source, s, r, List.of(), 0, 0);
    }

    /** A rejection of the statement at {@code index}, found after parsing (a conflict with a stored statement). */
    ImportRejection rejection(int index, String where, String message) {
        return new ImportRejection(source.name(), source.position(raws.get(index)), where, message);
    }

    /** The index of the statement with {@code id}, or -1. */
    int indexOf(UUID id) {
        for (int i = 0; i < statements.size(); i++) {
            if (statements.get(i).statement().id().equals(id)) {
                return i;
            }
        }
        return -1;
    }
}

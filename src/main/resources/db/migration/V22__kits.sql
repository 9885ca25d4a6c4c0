-- Kits: a sku sold as a set of other skus (its components), which has no stock of its own. A reservation line for a
-- kit holds its components, all or nothing per kit unit. Expand-only: a new table the previous release never reads.
CREATE TABLE kits (
    tenant_id            varchar(64)   NOT NULL,
    sku                  varchar(64)   NOT NULL,
    component_skus       varchar(64)[] NOT NULL,
    component_quantities integer[]     NOT NULL,
    version              bigint        NOT NULL DEFAULT 1,
    updated_at           timestamptz   NOT NULL DEFAULT now(),
    CONSTRAINT kits_pk PRIMARY KEY (tenant_id, sku),
    CONSTRAINT kits_components_bounded CHECK (cardinality(component_skus) BETWEEN 1 AND 20
                                              AND cardinality(component_quantities) = cardinality(component_skus))
);

/**
 * HTTP concerns every resource shares: problem+json for every error (types, pages, mappers, the body limit on the
 * event loop, counts by slug), strict JSON reading, cursors, and the OpenAPI defaults. It depends on no feature.
 */
package dev.stockhold.web;

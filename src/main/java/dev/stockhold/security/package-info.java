/**
 * Who is calling: the tenant from the token's {@code tenant_id} claim (every query names it, I5), the per-tenant
 * concurrency limit, the dev token endpoint of dev mode, and the prod guard that refuses the repository's keys.
 */
package dev.stockhold.security;

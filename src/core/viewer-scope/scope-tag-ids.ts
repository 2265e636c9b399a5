/**
 * An object's scope tags as a report's load reads them and its rows hold them (docs/finding-rules.md,
 * "Viewer scope"): what the reports' loads and rules import, apart from the rules of who sees what.
 */

import type { CellValue, ReportRow } from '../reports/report-model.js';

/**
 * An object's or an assignment's `roleScopeTagIds` as the scope may trust it: a list of tag ids, each
 * a non-empty string without a comma (Graph's type is a collection of String; ids such as "0"). Null
 * for anything else: the field absent or null, not a list, or a list holding anything but such
 * strings (`[1]`, `[null]`, `[""]`). Dropping the values that are not ids would turn `[1]` into `[]`,
 * which is "no scope tags", the whole tenant for an assignment and Default for an object: what
 * cannot be read is unknown, and unknown grants nothing (docs/finding-rules.md, "Viewer scope").
 */
export function scopeTagIdsOf(value: unknown): string[] | null {
  if (!Array.isArray(value)) return null;
  const ids: string[] = [];
  for (const id of value as unknown[]) {
    if (typeof id !== 'string' || id === '' || id.includes(',')) return null;
    ids.push(id);
  }
  return ids;
}

/** The row cell that holds a row's object's scope tags: the ids joined by commas, `''` for none (Default), null when not known. */
export const ROW_SCOPE_TAGS_KEY = 'roleScopeTagIds';

/**
 * An object's `roleScopeTagIds` as its row's cell: null when Graph sent none or sent them in a form
 * that is not a list of tag ids (`scopeTagIdsOf`: `[2]`, `[null]` are not known, never Default), else
 * the ids joined by commas.
 */
export function scopeTagsCell(tagIds: unknown): string | null {
  return scopeTagIdsOf(tagIds)?.join(',') ?? null;
}

/** A row's scope tags from its cell: null when the row carries none (a tenant-wide object, or a report without scope tags). */
export function rowScopeTags(row: ReportRow): string[] | null {
  const cell: CellValue | undefined = row[ROW_SCOPE_TAGS_KEY];
  if (typeof cell !== 'string') return null;
  return cell === '' ? [] : cell.split(',');
}

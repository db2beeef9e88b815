/**
 * Order-data resources with no rules beyond their fields and references: each is its
 * declaration, its table and its path.
 */
import { addressSpec } from '../../../shared/resources/address.js';
import { itemSpec } from '../../../shared/resources/item.js';
import { relationSpec } from '../../../shared/resources/relation.js';
import { warehouseSpec } from '../../../shared/resources/warehouse.js';
import type { ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const addressModule: ResourceModule = {
  spec: addressSpec,
  table: tables.address,
  path: '/address',
  relations: { relation: { kind: 'belongsTo', target: 'relation', foreignKey: 'relation_id' } },
};

export const itemModule: ResourceModule = { spec: itemSpec, table: tables.item, path: '/item' };

export const relationModule: ResourceModule = {
  spec: relationSpec,
  table: tables.relation,
  path: '/relation',
  relations: { addresses: { kind: 'hasMany', target: 'address', foreignKey: 'relation_id' } },
};

export const warehouseModule: ResourceModule = { spec: warehouseSpec, table: tables.warehouse, path: '/warehouse' };

/**
 * A photo for a quantity report (docs/API.md "The floor"), as the floor view sends it: what the
 * phone's camera took, made at most 1,600 pixels a side and a JPEG, so that a report fits the
 * device's outbox and the API's limit (`maxFloorPhotoBytes`) whatever camera took it.
 */
import { maxFloorPhotoBytes } from '../../shared/operations/floor.js';
import { base64FromBytes } from '../components/base64.js';

export interface FloorPhoto {
  filename: string;
  content_type: 'image/jpeg';
  data: string;
}

const maxSide = 1600;
const quality = 0.85;

export class PhotoTooLarge extends Error {}

export async function floorPhoto(file: File): Promise<FloorPhoto> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, maxSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  const context = canvas.getContext('2d');
  if (!context) throw new Error('This browser cannot draw the photo.');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', quality));
  if (!blob) throw new Error('This browser cannot make a JPEG of the photo.');
  if (blob.size > maxFloorPhotoBytes) throw new PhotoTooLarge();
  const base = file.name.replace(/\.[^.]*$/, '').slice(0, 200) || 'photo';
  return { filename: `${base}.jpg`, content_type: 'image/jpeg', data: base64FromBytes(new Uint8Array(await blob.arrayBuffer())) };
}

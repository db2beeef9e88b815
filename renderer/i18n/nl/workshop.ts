/** De Nederlandse labels van de werkplaatsmodus: het type eist elke Engelse sleutel. */
import type { workshopMessages as english } from '../en/workshop.js';

export const workshopMessages: Record<keyof typeof english, string> = {
  'workshop.title': 'Werkplaatsmodus',
  'workshop.what':
    'Toon de werkvloer op telefoons en tablets in het netwerk van de werkplaats, via HTTPS, aan apparaten die je hier koppelt. Verder is niets van Planner vanaf het netwerk te bereiken.',
  'workshop.desktopOnly': 'De werkplaatsmodus hoort bij de desktop-app.',
  'workshop.enable': 'De werkvloer tonen in het netwerk van de werkplaats',
  'workshop.on': 'Aan: gekoppelde apparaten kunnen de werkvloer openen.',
  'workshop.off': 'Uit: geen apparaat kan Planner bereiken.',
  'workshop.readFailed': 'De instellingen van de werkplaatsmodus konden niet worden gelezen: {message}',
  'workshop.host': 'Adres',
  'workshop.port': 'Poort',
  'workshop.use': 'Dit adres en deze poort gebruiken',
  'workshop.hint':
    '0.0.0.0 bedient elk netwerk van deze computer; geef een van zijn adressen om alleen dat netwerk te bedienen. Poort {min} tot {max}.',
  'workshop.hostInvalid': 'Vul een IPv4-adres in, zoals 0.0.0.0 of 192.168.1.10.',
  'workshop.portInvalid': 'Vul een geheel getal van {min} tot {max} in.',
  'workshop.portInUse': 'Poort {port} wordt al door een ander programma gebruikt. Kies een andere poort.',
  'workshop.portNotAllowed': 'Poort {port} mag op deze computer niet worden gebruikt. Kies een andere poort.',
  'workshop.addressNotAvailable': 'Dat adres hoort niet bij deze computer.',
  'workshop.didNotStart': 'Hij staat aan maar is niet met de app gestart: {problem}',
  'workshop.addresses': 'Openen op een apparaat',
  'workshop.noAddresses': 'Deze computer zit nu op geen enkel netwerk.',
  'workshop.fingerprint': 'Vingerafdruk van het certificaat (SHA-256)',
  'workshop.fingerprintHint':
    'De browser op een apparaat waarschuwt dat hij dit certificaat niet kent: controleer dat de vingerafdruk die hij toont deze is voordat je verdergaat.',
  'workshop.pairTitle': 'Een apparaat koppelen',
  'workshop.pairHow': 'Open op het apparaat het adres hierboven (of scan de code) en typ deze koppelcode. Hij werkt één keer, tot {time}.',
  'workshop.code': 'Koppelcode',
  'workshop.newCode': 'Een koppelcode tonen',
  'workshop.anotherCode': 'Een nieuwe code tonen',
  'workshop.qr': 'QR-code met het adres, de vingerafdruk en de koppelcode',
  'workshop.devices': 'Gekoppelde apparaten',
  'workshop.noDevices': 'Er is geen apparaat gekoppeld.',
  'workshop.deviceName': 'Apparaat',
  'workshop.pairedAt': 'Gekoppeld',
  'workshop.lastUsed': 'Laatst gebruikt',
  'workshop.neverUsed': 'Nog niet',
  'workshop.revoke': 'Intrekken',
  'workshop.revokeLabel': '{name} intrekken',
};

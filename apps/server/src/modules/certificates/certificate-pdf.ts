/**
 * The certificate as a PDF, drawn with pdfkit (text, not a picture of a
 * page: it can be searched, read aloud and parsed back), with the QR code
 * of the public check. The standard Helvetica covers Portuguese (WinAnsi).
 */
import {
  CERTIFICATE_REVOKE_LABELS,
  EXAM_RESULT_LABELS,
  MISSING_ROOM_LOCAL_MESSAGE,
  type Certificate,
} from '@exame/shared';
import PDFDocument from 'pdfkit';

const dateTime = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'short',
});
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));

export async function renderCertificatePdf(certificate: Certificate): Promise<Buffer> {
  const { content } = certificate;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Certificado do exame teórico ${content.schedulingId}`,
      Author: content.unitName,
      Subject: `Código de verificação ${certificate.code}`,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('Helvetica-Bold').fontSize(11).fillColor('#1d4ed8').text(content.unitName.toUpperCase());
  doc.moveDown(0.3);
  doc.font('Helvetica-Bold').fontSize(22).fillColor('#111111').text('Certificado do exame teórico');
  doc.moveDown(0.2);
  doc
    .font('Helvetica')
    .fontSize(11)
    .fillColor('#444444')
    .text(
      `Agendamento ${content.schedulingId} · emitido em ${formatDateTime(certificate.issuedAt)}`,
    );
  if (certificate.status === 'revoked' && certificate.revokedAt && certificate.revokedReason) {
    doc.moveDown(0.6);
    doc
      .font('Helvetica-Bold')
      .fillColor('#b91c1c')
      .text(
        `REVOGADO em ${formatDateTime(certificate.revokedAt)}: ${CERTIFICATE_REVOKE_LABELS[certificate.revokedReason]}.`,
      );
  }
  doc.moveDown(1);

  const field = (label: string, value: string) => {
    doc.font('Helvetica').fontSize(9).fillColor('#666666').text(label);
    doc.font('Helvetica-Bold').fontSize(12).fillColor('#111111').text(value);
    doc.moveDown(0.5);
  };
  field('Candidato', content.candidateName);
  field('CPF', content.candidateCpf);
  field('RENACH', content.candidateRenach ?? '—');
  field('Unidade', `${content.unitName} (${content.federativeUnit})`);
  field('Posto de atendimento', content.postName ?? '—');
  if (content.roomLocal) {
    field('Local da sala', content.roomLocal);
  } else {
    doc.font('Helvetica-Bold').fontSize(11).fillColor('#b45309').text(MISSING_ROOM_LOCAL_MESSAGE);
    doc.moveDown(0.5);
  }
  field('Estação', content.station ?? '—');
  field('Data do exame', formatDateTime(content.examDate));
  field(
    'Resultado',
    `${EXAM_RESULT_LABELS[content.result]}${content.score === null ? '' : ` (nota ${content.score.toLocaleString('pt-BR')})`}`,
  );
  field(
    'Examinadores da sala',
    content.examiners.length > 0 ? content.examiners.join(', ') : 'Nenhum registrado',
  );
  field('Auditoria', content.auditor ?? 'Resultado liberado sem decisão de auditoria');

  const qr = Buffer.from(certificate.qrDataUrl.split(',')[1] ?? '', 'base64');
  const top = doc.y + 10;
  doc.image(qr, 56, top, { width: 120 });
  doc
    .font('Helvetica')
    .fontSize(10)
    .fillColor('#111111')
    .text('Código de verificação', 196, top + 10);
  doc
    .font('Courier-Bold')
    .fontSize(16)
    .text(certificate.code, 196, top + 26);
  doc
    .font('Helvetica')
    .fontSize(9)
    .fillColor('#444444')
    .text('Confira a autenticidade em', 196, top + 52, { width: 340 });
  // The address on one line, never broken at a dash of the code: smaller type when it is long.
  let size = 9;
  while (size > 5 && doc.fontSize(size).widthOfString(certificate.verifyUrl) > 340) size -= 0.5;
  doc.fontSize(size).text(certificate.verifyUrl, 196, doc.y, {
    lineBreak: false,
    link: certificate.verifyUrl,
  });
  doc.end();
  return done;
}

/** The Studio's designs by id, for 记录: the Book is loaded and opened only when 记录 shows design sessions. */
export async function designNames(): Promise<Record<string, string>> {
  const { Book } = await import('../studio/book.ts');
  const book = await Book.open();
  try {
    return Object.fromEntries((await book.listProjects()).map((p) => [p.id, p.title]));
  } finally {
    book.close();
  }
}

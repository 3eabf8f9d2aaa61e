export async function loader() {
  return new Response("Not built yet", { status: 404 });
}
